import { Typography } from '@mantine/core';
import type { JSX } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

type Heading = 'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6';
const HEADINGS: Heading[] = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

/**
 * A block's docs sit under the screen's own "Documentation" heading (an h2),
 * so the author's `#` is an h3 there, `##` an h4, and so on down to h6:
 * the screen keeps its one h1, and an outline a screen reader can follow.
 */
const shifted: Components = Object.fromEntries(
  HEADINGS.map((tag, level) => {
    const Tag = HEADINGS[Math.min(5, level + 2)]!;
    const Shifted = ({ node: _node, ...props }: JSX.IntrinsicElements[Heading] & { node?: unknown }) => (
      <Tag {...props} />
    );
    return [tag, Shifted];
  }),
);

/** A block's docs as markdown: react-markdown builds elements and drops raw HTML, so docs cannot inject markup. */
export function DocsMarkdown({ children }: { children: string }) {
  return (
    <Typography>
      <Markdown remarkPlugins={[remarkGfm]} components={shifted}>
        {children}
      </Markdown>
    </Typography>
  );
}
