import { expectEqual, fail, ok, pick, viaOf, type Planner } from '../step.js';
import { valuesFor, type MInstance } from '../world.js';
import { instanceAt, instanceInputs, instancesProblem, pageAndInstance, pinned } from './pages.js';

const dryQuery = (dry: boolean) => (dry ? { dry_run: 1 } : undefined);

export const addBlocks: Planner = (w, s) => {
  const pageId = pick(w, w.pages, w.gone.pages, s.who, s.a);
  const size = w.pages[pageId]?.instances.length ?? 0;
  // No position (the end), or one in 0..size+1: size+1 is one past the end, a 400.
  const position = s.b % 3 === 0 ? undefined : s.b % (size + 2);
  const blocks = instanceInputs(w, s.who, s.d, 1 + (s.d % 2), s.fault === 1);
  return {
    call: {
      who: s.who,
      via: viaOf(s, true),
      method: 'POST',
      path: `/pages/${pageId}/blocks`,
      tool: 'add_blocks',
      pathArgs: { pageId },
      query: dryQuery(s.dry),
      body: s.fault === 2 ? { blocks: [] } : { blocks, ...(position !== undefined && { position }) },
    },
    dry: s.dry,
    expect: (m) => {
      if (s.fault === 2) return fail(400);
      const page = m.pages[pageId];
      if (!page || page.owner !== s.who) return fail(404);
      const at = position ?? page.instances.length;
      if (at > page.instances.length) return fail(400);
      const problem = instancesProblem(m, s.who, blocks);
      if (problem) return fail(problem);
      const newIds = (answer: any) =>
        (answer.blocks as { id: number }[]).slice(at, at + blocks.length).map((b) => b.id);
      return ok(
        201,
        (n, answer) => {
          n.pages[pageId]!.instances.splice(at, 0, ...pinned(n, newIds(answer), blocks));
          n.pages[pageId]!.version++;
        },
        // The page the answer shows is the model's with the new instances at `at` (in a race, this order's page).
        (n, answer) => {
          const ids = n.pages[pageId]!.instances.map((i) => i.id);
          ids.splice(at, 0, ...newIds(answer));
          expectEqual(
            `page ${pageId} after adding at ${at}`,
            (answer.blocks as { id: number }[]).map((b) => b.id),
            ids,
          );
        },
      );
    },
  };
};

export const moveBlock: Planner = (w, s) => {
  const { pageId, pbId } = pageAndInstance(w, s);
  const size = w.pages[pageId]?.instances.length ?? 1;
  const position = s.d % (size + 1);
  return {
    call: {
      who: s.who,
      via: viaOf(s, true),
      method: 'PUT',
      path: `/pages/${pageId}/blocks/${pbId}/move`,
      tool: 'move_block',
      pathArgs: { pageId, pbId },
      query: dryQuery(s.dry),
      body: s.fault ? { position: 'first' } : { position },
    },
    dry: s.dry,
    expect: (m) => {
      if (s.fault) return fail(400);
      const index = instanceAt(m, s.who, pageId, pbId);
      if (typeof index !== 'number') return fail(index.status);
      const instances = m.pages[pageId]!.instances;
      if (position >= instances.length) return fail(400);
      return ok(200, (n) => {
        const list = n.pages[pageId]!.instances;
        const [moved] = list.splice(index, 1);
        list.splice(position, 0, moved!);
        n.pages[pageId]!.version++;
      });
    },
  };
};

export const replaceBlock: Planner = (w, s) => {
  const { pageId, pbId } = pageAndInstance(w, s);
  const [input] = instanceInputs(w, s.who, s.d, 1, s.fault === 1);
  return {
    call: {
      who: s.who,
      via: viaOf(s, true),
      method: 'PUT',
      path: `/pages/${pageId}/blocks/${pbId}/replace`,
      tool: 'replace_block',
      pathArgs: { pageId, pbId },
      query: dryQuery(s.dry),
      body: s.fault === 2 ? { placeholder_values: {} } : input,
    },
    dry: s.dry,
    expect: (m) => {
      if (s.fault === 2) return fail(400);
      const index = instanceAt(m, s.who, pageId, pbId);
      if (typeof index !== 'number') return fail(index.status);
      const problem = instancesProblem(m, s.who, [input!]);
      if (problem) return fail(problem);
      return ok(200, (n, answer) => {
        const list = n.pages[pageId]!.instances;
        n.gone.instances.push(pbId);
        list.splice(index, 1, ...pinned(n, [answer.id], [input!]));
        n.pages[pageId]!.version++;
      });
    },
  };
};

export const removeBlock: Planner = (w, s) => {
  const { pageId, pbId } = pageAndInstance(w, s);
  return {
    call: {
      who: s.who,
      via: viaOf(s, true),
      method: 'DELETE',
      path: `/pages/${pageId}/blocks/${pbId}`,
      tool: 'remove_block',
      pathArgs: { pageId, pbId },
      query: dryQuery(s.dry),
    },
    dry: s.dry,
    expect: (m) => {
      const index = instanceAt(m, s.who, pageId, pbId);
      if (typeof index !== 'number') return fail(index.status);
      return ok(204, (n) => {
        n.pages[pageId]!.instances.splice(index, 1);
        n.gone.instances.push(pbId);
        n.pages[pageId]!.version++;
      });
    },
  };
};

export const setValues: Planner = (w, s) => {
  const { pageId, pbId } = pageAndInstance(w, s);
  const instance = w.pages[pageId]?.instances.find((i) => i.id === pbId);
  const values = valuesFor(instance?.field ?? 'title', s.fault === 0);
  return {
    call: {
      who: s.who,
      via: viaOf(s, true),
      method: 'PUT',
      path: `/pages/${pageId}/blocks/${pbId}`,
      tool: 'update_block_values',
      pathArgs: { pageId, pbId },
      query: dryQuery(s.dry),
      body: { placeholder_values: values },
    },
    dry: s.dry,
    expect: (m) => {
      const index = instanceAt(m, s.who, pageId, pbId);
      if (typeof index !== 'number') return fail(index.status);
      const field = m.pages[pageId]!.instances[index]!.field;
      return JSON.stringify(values) === JSON.stringify(valuesFor(field))
        ? ok(200, (n) => void n.pages[pageId]!.version++)
        : fail(400);
    },
  };
};

export const upgradeBlock: Planner = (w, s) => {
  // Mostly an outdated instance: one whose block has moved on since it was pinned.
  const outdated = (i: MInstance) => {
    const b = w.blocks[i.block];
    return b !== undefined && (b.major !== i.major || b.minor !== i.minor);
  };
  const { pageId, pbId } = pageAndInstance(w, s, outdated);
  return {
    call: {
      who: s.who,
      via: viaOf(s, true),
      method: 'POST',
      path: `/pages/${pageId}/blocks/${pbId}/upgrade`,
      tool: 'upgrade_block',
      pathArgs: { pageId, pbId },
      query: dryQuery(s.dry),
    },
    dry: s.dry,
    expect: (m) => {
      const index = instanceAt(m, s.who, pageId, pbId);
      if (typeof index !== 'number') return fail(index.status);
      const instance = m.pages[pageId]!.instances[index]!;
      const block = m.blocks[instance.block]!;
      // Up to date, or a major step (values cannot follow a renamed field): 422.
      if (block.major !== instance.major || block.minor === instance.minor) return fail(422);
      return ok(200, (n) => {
        n.pages[pageId]!.instances[index]!.minor = block.minor;
        n.pages[pageId]!.version++;
      });
    },
  };
};

export const upgradeAll: Planner = (w, s) => {
  const pageId = pick(w, w.pages, w.gone.pages, s.who, s.a);
  return {
    call: {
      who: s.who,
      via: viaOf(s, true),
      method: 'POST',
      path: `/pages/${pageId}/blocks/upgrade-all`,
      tool: 'upgrade_all_blocks',
      pathArgs: { pageId },
      query: dryQuery(s.dry),
    },
    dry: s.dry,
    expect: (m) => {
      const page = m.pages[pageId];
      if (!page || page.owner !== s.who) return fail(404);
      const minor = page.instances.filter((i) => {
        const b = m.blocks[i.block]!;
        return b.major === i.major && b.minor !== i.minor;
      });
      const skipped = page.instances.filter((i) => m.blocks[i.block]!.major !== i.major);
      return ok(
        200,
        (n) => {
          for (const i of n.pages[pageId]!.instances) {
            const b = n.blocks[i.block]!;
            if (b.major === i.major) i.minor = b.minor;
          }
          // One version, whatever it upgraded (none included).
          n.pages[pageId]!.version++;
        },
        (_n, answer) => {
          const ids = (list: { id: number }[]) => list.map((x) => x.id).sort((a, b) => a - b);
          const want = (list: { id: number }[]) => ids(list);
          if (JSON.stringify(ids(answer.upgraded)) !== JSON.stringify(want(minor)))
            throw new Error(
              `upgrade-all upgraded ${JSON.stringify(answer.upgraded)}, the model ${JSON.stringify(minor)}`,
            );
          if (JSON.stringify(ids(answer.skipped_major)) !== JSON.stringify(want(skipped)))
            throw new Error(
              `upgrade-all skipped ${JSON.stringify(answer.skipped_major)}, the model ${JSON.stringify(skipped)}`,
            );
        },
      );
    },
  };
};
