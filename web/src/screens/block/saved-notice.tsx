import { Alert } from '@mantine/core';
import { useLocation } from 'react-router';
import type { SavedState } from '../block-editor/block-form.screen';

const WHAT = {
  created: 'The block is created',
  major: 'Saved as a major change: pages using the block must be moved to it by hand',
  minor: 'Saved as a minor change: pages using the block can be upgraded in one step',
  none: 'Saved; no new version (only the name, description, docs, tags or type changed)',
} as const;

/** After a save, what the save did to the version (the editor passes it in the navigation state). */
export function SavedNotice() {
  const saved = (useLocation().state as SavedState | null)?.saved;
  if (!saved) return null;
  const version = saved.version ? `${saved.version.major}.${saved.version.minor}` : null;
  return (
    <Alert color={saved.bump === 'major' ? 'orange' : 'green'} role="status" title={WHAT[saved.bump]}>
      {version ? `Version ${version}.` : 'No version yet: add a template or fields.'}
    </Alert>
  );
}
