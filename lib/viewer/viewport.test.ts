import { describe, expect, it } from "vitest";
import { NODE_TITLE_PX, READABLE_TITLE_PX, READABLE_ZOOM, canvasHeightFor, openingViewport, panIntoView, readableViewport, WHOLE_FIT_ZOOM } from "./viewport";

const screen = { width: 1000, height: 600 };

describe("readableViewport", () => {
  it("never zooms a long drawing below the readable minimum, and starts at its top-left", () => {
    const viewport = readableViewport({ x: 0, y: 0, width: 4000, height: 300 }, screen);
    expect(viewport.zoom).toBe(READABLE_ZOOM);
    expect(NODE_TITLE_PX * viewport.zoom).toBeGreaterThanOrEqual(READABLE_TITLE_PX);
    expect(viewport.x).toBe(24);
    // Fits vertically: centred.
    expect(viewport.y).toBeCloseTo((600 - 300 * READABLE_ZOOM) / 2);
  });

  it("centres a small drawing at zoom 1 rather than blowing it up", () => {
    const viewport = readableViewport({ x: 0, y: 0, width: 500, height: 200 }, screen);
    expect(viewport).toEqual({ x: 250, y: 200, zoom: 1 });
  });

  it("fits between the bounds when the drawing only slightly overflows", () => {
    const viewport = readableViewport({ x: 0, y: 0, width: 1040, height: 200 }, screen);
    expect(viewport.zoom).toBeCloseTo(952 / 1040);
    expect(viewport.x).toBeCloseTo(24);
  });
});

describe("panIntoView", () => {
  const viewport = { x: 0, y: 0, zoom: 1 };
  it("leaves a visible node alone", () => {
    expect(panIntoView(viewport, { x: 100, y: 100, width: 200, height: 60 }, screen)).toBeNull();
  });
  it("pans just enough to show a node right of the screen", () => {
    const moved = panIntoView(viewport, { x: 1200, y: 100, width: 248, height: 60 }, screen);
    expect(moved).toEqual({ x: -(1200 + 248 - (1000 - 24)), y: 0, zoom: 1 });
  });
  it("pans a node above the screen down, at the current zoom", () => {
    const moved = panIntoView({ x: 0, y: -500, zoom: 0.5 }, { x: 100, y: 100, width: 248, height: 60 }, screen);
    expect(moved).toEqual({ x: 0, y: 24 - 50, zoom: 0.5 });
  });
});

describe("canvasHeightFor", () => {
  it("grows with the drawing within its bounds", () => {
    expect(canvasHeightFor({ height: 100 })).toBe(360);
    expect(canvasHeightFor({ height: 500 })).toBe(Math.round(500 * READABLE_ZOOM + 48));
    expect(canvasHeightFor({ height: 5000 })).toBe(720);
  });
});

describe("openingViewport", () => {
  const screen = { width: 658, height: 480 };
  it("shows a drawing a little wider than the canvas whole, below the readable zoom but not below 0.7", () => {
    const content = { x: 0, y: 0, width: 820, height: 300 };
    const viewport = openingViewport(content, screen);
    expect(viewport.zoom).toBeLessThan(READABLE_ZOOM);
    expect(viewport.zoom).toBeGreaterThanOrEqual(WHOLE_FIT_ZOOM);
    expect(viewport.x).toBeGreaterThanOrEqual(24 - 0.01);
    expect(viewport.x + content.width * viewport.zoom).toBeLessThanOrEqual(screen.width - 24 + 0.01);
  });

  it("opens a drawing too large for that at the readable zoom from its top-left, as before", () => {
    const content = { x: 0, y: 0, width: 4000, height: 300 };
    expect(openingViewport(content, screen)).toEqual(readableViewport(content, screen));
  });
});
