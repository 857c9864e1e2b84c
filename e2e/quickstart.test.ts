import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLeadValidator } from '@leadhook/contracts';
import { freePort, ROOT, useStartedService } from './support.js';

/**
 * The README's quick start works as pasted: its shell blocks parse and need no
 * tool the bootstrap does not install; every JSON body in the README and the
 * docs is valid, and every lead they post passes validation; and the first
 * session, run by bash against the real processes, ends with the lead's
 * activities delivered to its webhook receiver.
 */

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const DOCS = [
  'README.md',
  'docs/intake.md',
  'docs/api.md',
  'docs/webhooks.md',
  'docs/operations.md',
];

function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
}

/** Every `-d '{…}'` JSON body of a shell block (single-quoted, as the docs write them). */
function singleQuotedBodies(block: string): string[] {
  return [...block.matchAll(/-d '([{[][^']*)'/g)].map((m) => m[1] ?? '');
}

/** A block's `--data-urlencode name=value` pairs, as the form example sends them. */
function formFields(block: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of block.matchAll(/--data-urlencode (?:'([^']*)'|(\S+))/g)) {
    const pair = m[1] ?? m[2] ?? '';
    const at = pair.indexOf('=');
    fields[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return fields;
}

const validate = createLeadValidator();
const allBlocks = DOCS.flatMap((doc) =>
  shellBlocks(readFileSync(join(ROOT, doc), 'utf8')).map((block) => ({ doc, block })),
);

describe('the documented shell examples', () => {
  it('parse, and use no jq', () => {
    expect(allBlocks.length).toBeGreaterThan(8);
    for (const { doc, block } of allBlocks) {
      const parsed = spawnSync('bash', ['-n'], { input: block, encoding: 'utf8' });
      expect({ doc, block, stderr: parsed.stderr }).toEqual({ doc, block, stderr: '' });
      expect({ doc, block, jq: /\bjq\b/.test(block) }).toEqual({ doc, block, jq: false });
    }
  });

  it('call no tool beyond bash, coreutils, node and pnpm that the bootstrap does not install', () => {
    const bootstrap = readFileSync(join(ROOT, 'scripts', 'bootstrap.sh'), 'utf8');
    const installs = /for tool in ([a-z ]+); do/.exec(bootstrap)?.[1]?.split(' ') ?? [];
    for (const tool of ['curl', 'openssl', 'jq', 'xxd', 'python3', 'wget', 'http']) {
      const used = allBlocks.some(({ block }) =>
        new RegExp(`(^|[|;&(]\\s*)${tool}\\b`, 'm').test(block),
      );
      expect({ tool, used, installed: installs.includes(tool) }).toEqual({
        tool,
        used,
        installed: used,
      });
    }
  });

  it('send valid JSON, and leads that pass validation', () => {
    const bodies = allBlocks.flatMap(({ doc, block }) =>
      singleQuotedBodies(block).map((body) => ({ doc, body })),
    );
    expect(bodies.length).toBeGreaterThan(3);
    const leads = [];
    for (const { doc, body } of bodies) {
      let parsed: unknown;
      expect(() => {
        parsed = JSON.parse(body);
      }).not.toThrow();
      if (parsed && typeof parsed === 'object' && 'tcpa_opt_in_token' in parsed) {
        leads.push({ doc, result: validate(parsed as Record<string, unknown>) });
      }
    }
    expect(leads.map((l) => l.doc)).toEqual(
      expect.arrayContaining(['README.md', 'docs/intake.md']),
    );
    for (const lead of leads) expect(lead).toMatchObject({ result: { ok: true } });
  });

  it("give the form example of docs/intake.md a valid lead, not the JSON example's phone", () => {
    const intake = shellBlocks(readFileSync(join(ROOT, 'docs/intake.md'), 'utf8'));
    const form = intake.find((block) => block.includes('--data-urlencode'));
    const json = intake.find((block) => block.includes("-d '{"));
    const formLead = validate(formFields(form ?? ''));
    const jsonLead = validate(JSON.parse(singleQuotedBodies(json ?? '')[0] ?? '{}'));
    expect(formLead.ok && jsonLead.ok).toBe(true);
    if (formLead.ok && jsonLead.ok) {
      expect(formLead.lead.fields.phone).not.toBe(jsonLead.lead.fields.phone);
    }
  });
});

describe('the first session of the README', () => {
  const started = useStartedService('quickstart', {
    // As the README starts it; and a window open at any hour, so the SMS step
    // runs whenever the test does (the README's lead lives in California, which
    // sets no hours of its own: CONTACT_HOURS alone decides).
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    CONTACT_HOURS: '00:00-24:00',
  });

  it('delivers the lead posted by curl to the local receiver', async () => {
    const blocks = shellBlocks(readme.split(/^### A first session$/m)[1] ?? '');
    const start = blocks.find((b) => b.includes('pnpm start'));
    const session = blocks.find((b) => b.includes('pnpm leadhook account create'));
    const deliveries = blocks.find((b) => b.includes('/deliveries'));
    expect(start).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS=true');
    if (!session || !deliveries) throw new Error('the README has no first session');

    const receiverPort = String(await freePort());
    const onOurPorts = (block: string) =>
      block
        .replaceAll('localhost:3001', `localhost:${started.service.ports.API_PORT}`)
        .replaceAll('listen(4000)', `listen(${receiverPort})`)
        .replaceAll('127.0.0.1:4000', `127.0.0.1:${receiverPort}`);
    // The session as written, then the delivery log until the outcome is in
    // (bounded), then the receiver stopped as the README says.
    const script = [
      'set -u',
      onOurPorts(session),
      'for _ in $(seq 1 240); do',
      `  log=$(${onOurPorts(deliveries).trim()})`,
      '  case "$log" in *"unreachable succeeded"*) break;; esac',
      '  sleep 0.5',
      'done',
      'echo "$log"',
      'kill %1',
    ].join('\n');

    const child = spawn('bash', ['-c', script], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: started.db.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));

    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^lh_\S+$/m);
    expect(stdout).toMatch(/"status":"accepted","lead_id":"lead_/);
    for (const label of ['started', 'first_message_sent', 'completed', 'unreachable']) {
      expect(stdout).toMatch(new RegExp(`^webhook act_\\w+ ${label}$`, 'm'));
      expect(stdout).toMatch(new RegExp(`^${label} succeeded after 1 attempt\\(s\\)$`, 'm'));
    }
  }, 180_000);
});
