import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// The machine is shared: give the first render of a file (module loading included) time.
configure({ asyncUtilTimeout: 5000 });
afterEach(cleanup);
