import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The repository stands on its own: what its files cite is in it. Comments,
// messages and docs cite docs/*.md (with a section, as `docs/webhooks.md,
// "Retries"`), never documents a clone does not have.

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Every tracked file that is text, with its content. */
function trackedTexts(): { path: string; text: string }[] {
  const paths = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((path) => path !== '' && existsSync(join(ROOT, path)));
  return paths.flatMap((path) => {
    const bytes = readFileSync(join(ROOT, path));
    return bytes.includes(0) ? [] : [{ path, text: bytes.toString('utf8') }];
  });
}

const files = trackedTexts();

// Spelled in pieces, so this file does not match itself.
const OUTSIDE_DOCUMENTS = [
  ['CONTRACT', '.md'],
  ['DESIGN', '.md'],
  ['STYLE', '.md'],
  ['CONTRACT', ' §'],
].map(([name, tail]) => `${name}${tail}`);

/** Headings of a docs file, lower-cased. */
function headingsOf(path: string): string[] {
  return readFileSync(join(ROOT, path), 'utf8')
    .split('\n')
    .filter((line) => /^#{1,4} /.test(line))
    .map((line) => line.replace(/^#+ /, '').toLowerCase());
}

describe('the repository', () => {
  it('has text files to check', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.map((f) => f.path)).toContain('README.md');
  });

  it('cites no document that is not in it', () => {
    const found = files.flatMap(({ path, text }) =>
      text
        .split('\n')
        .flatMap((line, index) =>
          OUTSIDE_DOCUMENTS.filter((name) => line.includes(name)).map(
            (name) => `${path}:${index + 1}: ${name}`,
          ),
        ),
    );
    expect(found).toEqual([]);
  });

  it('cites docs files that exist, and sections they have', () => {
    const broken: string[] = [];
    const citation = /docs\/([a-z-]+)\.md(?:,\s*"([^"]+)"|\s*\("([^"]+)"\))?/g;
    for (const { path, text } of files) {
      for (const match of text.matchAll(citation)) {
        const doc = `docs/${match[1]}.md`;
        const section = match[2] ?? match[3];
        if (!existsSync(join(ROOT, doc))) {
          broken.push(`${path}: ${doc} does not exist`);
        } else if (
          section !== undefined &&
          !headingsOf(doc).some((h) => h.startsWith(section.toLowerCase()))
        ) {
          broken.push(`${path}: ${doc} has no section "${section}"`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('cites README sections it has', () => {
    const headings = headingsOf('README.md');
    const citation = new RegExp(`${'README'} "([^"]+)"`, 'g');
    const broken = files.flatMap(({ path, text }) =>
      [...text.matchAll(citation)]
        .map((m) => m[1] ?? '')
        .filter((section) => !headings.some((h) => h.startsWith(section.toLowerCase())))
        .map((section) => `${path}: README.md has no section "${section}"`),
    );
    expect(broken).toEqual([]);
  });
});
