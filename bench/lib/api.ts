/** Seeding through the public API, as an integration would. */
export interface Session {
  url: string;
  key: string;
  cookie: string;
  userId: number;
}

async function json(response: Response): Promise<any> {
  const body = await response.json();
  if (!response.ok) throw new Error(`${response.status} ${JSON.stringify(body)}`);
  return body;
}

export async function signUp(url: string): Promise<Session> {
  const registered = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `bench-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`,
      password: 'bench-password',
    }),
  });
  const cookie = registered.headers.getSetCookie()[0]!.split(';')[0]!;
  const { user } = await json(registered);
  const { key } = await json(
    await fetch(`${url}/api/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ title: 'bench' }),
    }),
  );
  return { url, key, cookie, userId: user.id };
}

export const v1 = async (s: Session, method: string, path: string, body?: unknown) =>
  json(
    await fetch(`${s.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${s.key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );

export async function site(s: Session): Promise<number> {
  return (
    await json(
      await fetch(`${s.url}/api/sites`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: s.cookie },
        body: JSON.stringify({ name: 'Bench' }),
      }),
    )
  ).id;
}

/** A typical content block: a title, a text, a list of items. */
export const BENCH_FIELDS = [
  { name: 'title', type: 'string', required: true, max_length: 120 },
  { name: 'text', type: 'text' },
  {
    name: 'items',
    type: 'array',
    items: {
      type: 'object',
      fields: [
        { name: 'label', type: 'string', required: true },
        { name: 'url', type: 'url' },
      ],
    },
  },
];
export const BENCH_TEMPLATE =
  '<section class="b"><h2>{{ title }}</h2><p>{{ text }}</p><ul>{% for i in items %}<li><a href="{{ i.url }}">{{ i.label }}</a></li>{% endfor %}</ul></section>';
export const benchValues = (i: number) => ({
  title: `Section ${i}`,
  text: 'Some text for the section, long enough to look like real copy on a page.',
  items: [1, 2, 3].map((n) => ({ label: `Link ${i}.${n}`, url: `https://example.com/${i}/${n}` })),
});

/** Ten blocks of BENCH_TEMPLATE, each its own class and CSS: pages go round them (B1–B3). */
export async function tenBlocks(s: Session, label: string): Promise<any[]> {
  const blocks: any[] = [];
  for (let i = 0; i < 10; i++)
    blocks.push(
      await v1(s, 'POST', '/blocks', {
        name: `${label} block ${i}`,
        template: BENCH_TEMPLATE.replace('class="b"', `class="b${i}"`),
        css: `.b${i}{margin:${i}px}`,
        schema_content: BENCH_FIELDS,
      }),
    );
  return blocks;
}
