import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

/** A fenced `sh` block of the walk-through, and the `text` block that shows what it prints. */
export interface WalkthroughBlock {
  commands: string;
  shown: string | null;
}

/** The `sh` blocks between `<!-- walkthrough:start -->` and `<!-- walkthrough:end -->`, in order. */
export function walkthroughBlocks(markdown: string): WalkthroughBlock[] {
  const start = markdown.indexOf('<!-- walkthrough:start -->');
  const end = markdown.indexOf('<!-- walkthrough:end -->');
  if (start < 0 || end < start) throw new Error('The document has no walk-through markers.');
  const fences = [...markdown.slice(start, end).matchAll(/```(\w+)\n([\s\S]*?)```/g)];
  return fences.flatMap((fence, i) => {
    if (fence[1] !== 'sh') return [];
    const next = fences[i + 1];
    return [{ commands: fence[2], shown: next?.[1] === 'text' ? next[2] : null }];
  });
}

/** A request a `curl` line made, and its answer. */
export interface CurlCall {
  method: string;
  url: string;
  status: number;
  body: string;
}

export interface ShellOptions {
  /** Where `http://localhost:3000` of the walk-through goes: the test service. */
  baseUrl: string;
  /** Runs `npm run --silent cli -- <args>`; answers its stdout. */
  cli(args: string[]): Promise<string>;
  /** Where files the commands write (`printf … > f`) and read (`curl -F f=@f`) live. */
  workDir: string;
}

const WALKTHROUGH_ORIGIN = 'http://localhost:3000';

type Token = { kind: 'word'; parts: WordPart[] } | { kind: 'op'; value: '|' | '>' | ';' };
type WordPart = { literal: string } | { variable: string } | { substitution: string };

/**
 * The small part of POSIX shell the walk-through uses, interpreted: assignments, `$VAR`, quotes,
 * `$( … )`, pipes, `>` into a file, `;`, functions defined with `node -e`, and the commands
 * `echo`, `printf`, `curl` and `npm run --silent cli --`. Anything else is an error, so a new
 * command in the walk-through fails here until the test understands it.
 */
export class WalkthroughShell {
  readonly variables = new Map<string, string>();
  readonly calls: CurlCall[] = [];
  private readonly functions = new Map<string, string>();

  constructor(private readonly options: ShellOptions) {}

  /** Runs a block; answers what it printed. */
  async run(block: string): Promise<string> {
    let printed = '';
    for (const line of block.replace(/\\\n/g, ' ').split('\n')) {
      const trimmed = line.trim();
      if (trimmed === '' || trimmed.startsWith('#')) continue;
      const definition = /^(\w+)\(\) \{ (node -e .*); \}$/.exec(trimmed);
      if (definition) {
        this.functions.set(definition[1], definition[2]);
        continue;
      }
      try {
        for (const statement of split(tokenize(trimmed), ';')) printed += await this.statement(statement);
      } catch (error) {
        const last = this.calls[this.calls.length - 1];
        const answer = last
          ? `\nThe last request, ${last.method} ${last.url}, answered ${last.status}: ${last.body}`
          : '';
        throw new Error(`The walk-through line failed: ${trimmed}\n${String(error)}${answer}`, {
          cause: error,
        });
      }
    }
    return printed;
  }

  private async statement(tokens: Token[]): Promise<string> {
    const assignments: [string, WordPart[]][] = [];
    while (tokens[0]?.kind === 'word') {
      const first = tokens[0].parts[0];
      const match = first && 'literal' in first ? /^(\w+)=(.*)$/s.exec(first.literal) : null;
      if (!match) break;
      const rest = match[2] === '' ? [] : [{ literal: match[2] }];
      assignments.push([match[1], [...rest, ...tokens[0].parts.slice(1)]]);
      tokens = tokens.slice(1);
    }
    if (assignments.length > 0 && tokens.length === 0) {
      for (const [name, parts] of assignments) this.variables.set(name, await this.expand(parts));
      return '';
    }
    if (assignments.length > 0) throw new Error('Assignments before a command are not interpreted.');
    return this.pipeline(tokens);
  }

  private async pipeline(tokens: Token[]): Promise<string> {
    let input = '';
    for (const stage of split(tokens, '|')) {
      const redirect = stage.findIndex((token) => token.kind === 'op' && token.value === '>');
      const words = await Promise.all(
        (redirect < 0 ? stage : stage.slice(0, redirect)).map((token) =>
          token.kind === 'word' ? this.expand(token.parts) : Promise.reject(new Error('Unexpected operator')),
        ),
      );
      const output = await this.command(words, input);
      if (redirect >= 0) {
        const target = stage[redirect + 1];
        if (target?.kind !== 'word') throw new Error('> needs a file name');
        await writeFile(this.file(await this.expand(target.parts)), output);
        input = '';
      } else {
        input = output;
      }
    }
    return input;
  }

  private async command([name, ...args]: string[], input: string): Promise<string> {
    if (name === 'echo') return `${args.join(' ')}\n`;
    if (name === 'printf') return args[0].replace(/\\n/g, '\n');
    if (name === 'curl') return this.curl(args);
    if (name === 'npm' && args.slice(0, 4).join(' ') === 'run --silent cli --') {
      return this.options.cli(args.slice(4));
    }
    const body = this.functions.get(name);
    if (body) return this.node(body, args, input);
    throw new Error(`The walk-through runs "${name}", which this interpreter does not know.`);
  }

  /** A function of the walk-through (`json`): its `node -e` script, run with its arguments. */
  private async node(body: string, args: string[], input: string): Promise<string> {
    const words = await Promise.all(
      tokenize(body).map((token) => {
        if (token.kind !== 'word') throw new Error('A function body is one node command.');
        return this.expand(token.parts, args);
      }),
    );
    return new Promise((resolve, reject) => {
      const child = execFile(process.execPath, words.slice(1), (error, stdout, stderr) =>
        error ? reject(new Error(stderr || error.message, { cause: error })) : resolve(stdout),
      );
      child.stdin?.end(input);
    });
  }

  private async curl(args: string[]): Promise<string> {
    const headers = new Headers();
    let body: string | FormData | undefined;
    let url: string | undefined;
    let follow = false;
    let maxTimeMs: number | undefined;
    let suffix = '';
    for (let i = 0; i < args.length; i++) {
      const arg = args[i];
      if (arg === '-s' || arg === '-N') continue;
      if (arg === '-L') follow = true;
      else if (arg === '--max-time') maxTimeMs = Number(args[++i]) * 1000;
      else if (arg === '-w') suffix = args[++i].replace(/\\n/g, '\n');
      else if (arg === '-H') {
        const [name, ...value] = args[++i].split(':');
        headers.set(name.trim(), value.join(':').trim());
      } else if (arg === '-d') body = args[++i];
      else if (arg === '-F') body = await this.form(args[++i]);
      else if (arg.startsWith('-')) throw new Error(`curl option ${arg} is not interpreted.`);
      else url = arg;
    }
    if (!url) throw new Error('curl without a URL');
    // curl sends `-d` as a form unless told otherwise; the walk-through always says JSON.
    if (typeof body === 'string' && !headers.has('content-type')) {
      throw new Error(`curl -d without a Content-Type header: ${url}`);
    }
    const target = (url.startsWith('http') ? url : `http://${url}`).replace(
      WALKTHROUGH_ORIGIN,
      this.options.baseUrl,
    );
    const method = body === undefined ? 'GET' : 'POST';
    const controller = new AbortController();
    const timer = maxTimeMs === undefined ? undefined : setTimeout(() => controller.abort(), maxTimeMs);
    let text = '';
    let status = 0;
    try {
      const res = await fetch(target, {
        method,
        headers,
        body,
        redirect: follow ? 'follow' : 'manual',
        signal: controller.signal,
      });
      status = res.status;
      const decoder = new TextDecoder();
      for await (const chunk of res.body ?? []) text += decoder.decode(chunk as Uint8Array, { stream: true });
    } catch (error) {
      // --max-time: curl prints what came before the deadline, as a stream that stays open does.
      if (!controller.signal.aborted) throw error;
    } finally {
      clearTimeout(timer);
    }
    this.calls.push({ method, url: target, status, body: text });
    return text + suffix;
  }

  private async form(field: string): Promise<FormData> {
    const match = /^(\w+)=@(.+)$/.exec(field);
    if (!match) throw new Error(`curl -F ${field} is not interpreted.`);
    const form = new FormData();
    form.append(match[1], new Blob([await readFile(this.file(match[2]))]), basename(match[2]));
    return form;
  }

  private file(name: string): string {
    if (name.includes('/')) throw new Error(`The walk-through writes ${name}: only plain file names here.`);
    return join(this.options.workDir, name);
  }

  private async expand(parts: WordPart[], positional: string[] = []): Promise<string> {
    let value = '';
    for (const part of parts) {
      if ('literal' in part) value += part.literal;
      else if ('variable' in part) {
        const index = Number(part.variable);
        value += Number.isInteger(index)
          ? (positional[index - 1] ?? '')
          : (this.variables.get(part.variable) ?? '');
      } else {
        value += (await this.run(part.substitution)).replace(/\n+$/, '');
      }
    }
    return value;
  }
}

function split(tokens: Token[], op: ';' | '|'): Token[][] {
  const groups: Token[][] = [[]];
  for (const token of tokens) {
    if (token.kind === 'op' && token.value === op) groups.push([]);
    else groups[groups.length - 1].push(token);
  }
  return groups.filter((group) => group.length > 0);
}

/** Words, quotes and operators; unquoted words are not split further, which the walk-through never needs. */
function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  let parts: WordPart[] | null = null;
  // Adjacent literal pieces (`'a'b"c"`) make one, so `NAME=` is seen whole.
  const push = (part: WordPart) => {
    const list = (parts ??= []);
    const last = list[list.length - 1];
    if (last && 'literal' in last && 'literal' in part) last.literal += part.literal;
    else list.push(part);
  };
  const end = () => {
    if (parts) tokens.push({ kind: 'word', parts });
    parts = null;
  };
  let i = 0;
  const variable = (): void => {
    const braced = line[i + 1] === '{';
    const match = (braced ? /^\{(\w+)\}/ : /^(\w+)/).exec(line.slice(i + 1));
    if (!match) throw new Error(`Unreadable $ at ${i} in: ${line}`);
    push({ variable: match[1] });
    i += 1 + match[0].length;
  };
  const substitution = (): void => {
    let depth = 0;
    let j = i + 1;
    let quote: string | null = null;
    for (; j < line.length; j++) {
      const c = line[j];
      if (quote) {
        if (c === quote) quote = null;
      } else if (c === "'" || c === '"') quote = c;
      else if (c === '(') depth++;
      else if (c === ')' && --depth === 0) break;
    }
    push({ substitution: line.slice(i + 2, j) });
    i = j + 1;
  };
  while (i < line.length) {
    const c = line[i];
    if (c === ' ' || c === '\t') {
      end();
      i++;
    } else if (c === '|' || c === ';' || c === '>') {
      end();
      tokens.push({ kind: 'op', value: c });
      i++;
    } else if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close < 0) throw new Error(`Unclosed ' in: ${line}`);
      push({ literal: line.slice(i + 1, close) });
      i = close + 1;
    } else if (c === '"') {
      i++;
      let literal = '';
      while (i < line.length && line[i] !== '"') {
        if (line[i] === '\\' && '"$\\`'.includes(line[i + 1])) {
          literal += line[i + 1];
          i += 2;
        } else if (line[i] === '$' && line[i + 1] === '(') {
          push({ literal });
          literal = '';
          substitution();
        } else if (line[i] === '$' && /[\w{]/.test(line[i + 1] ?? '')) {
          push({ literal });
          literal = '';
          variable();
        } else literal += line[i++];
      }
      if (line[i] !== '"') throw new Error(`Unclosed " in: ${line}`);
      push({ literal });
      i++;
    } else if (c === '$' && line[i + 1] === '(') substitution();
    else if (c === '$' && /[\w{]/.test(line[i + 1] ?? '')) variable();
    else {
      push({ literal: c });
      i++;
    }
  }
  end();
  return tokens;
}
