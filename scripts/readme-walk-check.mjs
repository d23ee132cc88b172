// A non-2xx answer met during the README walk is fine only if the README shows
// it: a `# → <status> {"error":"<the same message>"` line. Prints why not.
import { readFileSync } from 'node:fs';

const [readmePath, status, bodyPath, command] = process.argv.slice(2);
const readme = readFileSync(readmePath, 'utf8');
const body = readFileSync(bodyPath, 'utf8');
let message;
try {
  message = JSON.parse(body).error;
} catch {
  message = undefined;
}
const shown = readme
  .split('\n')
  .some(
    (line) => line.includes(`# → ${status} `) && typeof message === 'string' && line.includes(JSON.stringify(message)),
  );
if (!shown) {
  process.stdout.write(`not shown in the README: ${status} ${body.slice(0, 300)}\n  for: curl ${command}\n`);
}
