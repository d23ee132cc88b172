/** A table that scrolls sideways on a narrow screen is reached and scrolled by keyboard too. */
export const scrollable = (label: string) => ({
  viewportProps: { tabIndex: 0, role: 'region', 'aria-label': label },
});
