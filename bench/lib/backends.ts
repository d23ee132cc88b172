import pg from 'pg';

/**
 * The service's database URL named for its bench run (`application_name`), so
 * that its PostgreSQL backends can be told from every other client of the
 * database (the machine's other engineers share it).
 */
export function namedUrl(databaseUrl: string, name: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('application_name', name);
  return url.toString();
}

/** The pids of the backends serving connections named `name` (see namedUrl). */
export async function backendsNamed(databaseUrl: string, name: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      `select pid from pg_stat_activity where application_name = $1 and backend_type = 'client backend'`,
      [name],
    );
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

/** µs per request, Node and its database apart when the database's share was measured. */
export const cpuSplit = (r: { cpuUs: number | undefined; dbCpuUs?: number | undefined }): string => {
  const node = r.cpuUs === undefined ? '?' : r.cpuUs.toFixed(0);
  if (r.dbCpuUs === undefined) return `${node} µs/req server CPU (Node; the database is in it)`;
  const total = r.cpuUs === undefined ? '?' : (r.cpuUs + r.dbCpuUs).toFixed(0);
  return `${total} µs/req server CPU (Node ${node} + PostgreSQL backends ${r.dbCpuUs.toFixed(0)})`;
};
