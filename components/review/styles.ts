// Class names shared by the review pages.

export const linkClass = "text-brand-700 underline-offset-2 hover:underline dark:text-sky-300";
