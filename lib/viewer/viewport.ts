// Where the canvas camera starts and how it follows the keyboard: a fit that never zooms below the readable
// minimum (node titles ≥ 11 px), starting at the drawing's top-left when it overflows, and the smallest pan that
// brings a node into view. Pure arithmetic on rectangles in flow coordinates and viewports in screen pixels.

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ScreenSize {
  width: number;
  height: number;
}

/** Node titles are drawn at this size (px) at zoom 1. */
export const NODE_TITLE_PX = 13;
/** The smallest on-screen title size the canvas starts at. */
export const READABLE_TITLE_PX = 11;
/** The lowest zoom the canvas fits to on its own: titles stay ≥ READABLE_TITLE_PX. */
export const READABLE_ZOOM = Math.ceil((READABLE_TITLE_PX / NODE_TITLE_PX) * 100) / 100;

export interface FitOptions {
  /** Screen pixels kept free around the drawing. */
  padding?: number;
  minZoom?: number;
  maxZoom?: number;
}

/**
 * Fits `content` into `screen` but never below `minZoom` (default READABLE_ZOOM) nor above `maxZoom` (default 1).
 * On an axis where the drawing fits it is centred; where it does not, it starts at the top / left edge (the Start
 * node side) and the rest is reached by panning.
 */
export function readableViewport(content: Box, screen: ScreenSize, options: FitOptions = {}): Viewport {
  const padding = options.padding ?? 24;
  const minZoom = options.minZoom ?? READABLE_ZOOM;
  const maxZoom = options.maxZoom ?? 1;
  const width = Math.max(content.width, 1);
  const height = Math.max(content.height, 1);
  const fit = Math.min((screen.width - 2 * padding) / width, (screen.height - 2 * padding) / height);
  const zoom = Math.min(maxZoom, Math.max(minZoom, Number.isFinite(fit) && fit > 0 ? fit : minZoom));
  const place = (start: number, extent: number, room: number): number => {
    const drawn = extent * zoom;
    return drawn + 2 * padding <= room ? (room - drawn) / 2 - start * zoom : padding - start * zoom;
  };
  return { x: place(content.x, width, screen.width), y: place(content.y, height, screen.height), zoom };
}

/**
 * The smallest pan (same zoom) that shows `box` wholly inside `screen` with `margin` pixels to spare, or null when
 * it is already visible. A box larger than the screen is aligned to its top-left corner.
 */
export function panIntoView(viewport: Viewport, box: Box, screen: ScreenSize, margin = 24): Viewport | null {
  const axis = (offset: number, start: number, extent: number, room: number): number => {
    const from = start * viewport.zoom + offset;
    const to = from + extent * viewport.zoom;
    if (to - from + 2 * margin > room) return from === margin ? offset : offset + (margin - from);
    if (from < margin) return offset + (margin - from);
    if (to > room - margin) return offset - (to - (room - margin));
    return offset;
  };
  const x = axis(viewport.x, box.x, box.width, screen.width);
  const y = axis(viewport.y, box.y, box.height, screen.height);
  return x === viewport.x && y === viewport.y ? null : { x, y, zoom: viewport.zoom };
}

/** A canvas tall enough to show the whole drawing at the readable zoom, within [min, max] pixels. */
export function canvasHeightFor(content: { height: number }, min = 360, max = 720, padding = 24): number {
  return Math.round(Math.min(max, Math.max(min, content.height * READABLE_ZOOM + 2 * padding)));
}

/** The lowest zoom at which a whole drawing is still shown at once rather than opened readable and panned (titles ≥ 9 px). */
export const WHOLE_FIT_ZOOM = 0.7;

/**
 * Where a canvas opens: the whole drawing when it fits at WHOLE_FIT_ZOOM or more (nothing clipped), else the readable
 * fit starting at the top-left.
 */
export function openingViewport(content: Box, screen: ScreenSize, padding = 24): Viewport {
  const whole = readableViewport(content, screen, { padding, minZoom: WHOLE_FIT_ZOOM });
  const fits = content.width * whole.zoom + 2 * padding <= screen.width + 0.5 && content.height * whole.zoom + 2 * padding <= screen.height + 0.5;
  return fits ? whole : readableViewport(content, screen, { padding });
}
