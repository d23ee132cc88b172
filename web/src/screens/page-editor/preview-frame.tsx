import { Alert, Box, Group, Paper, SegmentedControl, Text } from '@mantine/core';
import { useElementSize, useMediaQuery } from '@mantine/hooks';
import { useState, type ReactNode } from 'react';
import { errorMessage } from '../../api/errors';
import { SandboxedHtml, type Picking } from '../sandboxed-html';

export const PREVIEW_WIDTHS = { mobile: 390, tablet: 768, desktop: 1280 } as const;
export type PreviewWidth = keyof typeof PREVIEW_WIDTHS;

/**
 * Rendered HTML in a sandboxed iframe at one of three device widths, scaled
 * down to fit its box (a 1280 px page still shows whole on a 390 px phone).
 * `allow-scripts` without `allow-same-origin`: the blocks' JS runs in an
 * opaque origin and can reach neither the app nor its session.
 * It opens at the width of the screen it is seen on (a phone sees the
 * mobile width first). While a newer render is on its way the last one
 * stays, so typing does not flash.
 */
export function PreviewFrame({
  title,
  html,
  error,
  pending,
  height = 640,
  note,
  pick,
  fitHeight,
}: {
  /** The iframe's accessible name; the width control is named after it. */
  title: string;
  html: string | undefined;
  error: unknown;
  pending: boolean;
  height?: number;
  note?: ReactNode;
  /** Blocks outlined under the pointer and chosen by a click (a marked preview). */
  pick?: Picking;
  /** The height it takes on screen, whatever the scale (the page editor fills the window); else `height` scaled. */
  fitHeight?: number;
}) {
  const phone = useMediaQuery('(max-width: 30em)', false, { getInitialValueInEffect: false });
  const [width, setWidth] = useState<PreviewWidth>(phone ? 'mobile' : 'desktop');
  const { ref, width: boxWidth } = useElementSize();
  const device = PREVIEW_WIDTHS[width];
  // Before the box is measured (and in tests) the frame shows unscaled.
  const scale = boxWidth > 0 ? Math.min(1, boxWidth / device) : 1;
  const frameHeight = fitHeight ? Math.round(fitHeight / scale) : height;
  return (
    <Box>
      <Group justify="space-between" mb="xs" gap="xs">
        <Text size="sm" c="dimmed" aria-live="polite">
          {pending ? 'Updating…' : error != null ? 'Cannot render the latest changes' : `${device} px wide`}
        </Text>
        <SegmentedControl
          aria-label={`${title} width`}
          size="xs"
          value={width}
          onChange={(value) => setWidth(value)}
          data={[
            { value: 'mobile', label: 'Mobile' },
            { value: 'tablet', label: 'Tablet' },
            { value: 'desktop', label: 'Desktop' },
          ]}
        />
      </Group>
      {note}
      {error != null && (
        <Alert color="red" role="alert" title="The preview cannot show the latest changes" mb="xs">
          {errorMessage(error)}
          {html !== undefined && ' The last version that rendered is shown.'}
        </Alert>
      )}
      <Paper withBorder ref={ref} style={{ overflow: 'hidden', height: frameHeight * scale + 2 }}>
        {html !== undefined && (
          <SandboxedHtml
            title={title}
            html={html}
            width={width}
            pick={pick}
            style={{
              width: device,
              height: frameHeight,
              border: 0,
              display: 'block',
              transform: scale < 1 ? `scale(${scale})` : undefined,
              transformOrigin: '0 0',
            }}
          />
        )}
      </Paper>
    </Box>
  );
}
