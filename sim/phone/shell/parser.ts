/**
 * A small POSIX-ish shell front end, enough for what adbkit and a device worker send:
 * quoting ('…', "…", '"'"', backslashes), `;`, `&&`, `||`, `|`, `>`/`>>`/`2>`/`2>&1`.
 * No variables, globbing or subshells: mksh would expand them, our callers never rely on it.
 */
export type Redirect = { fd: 1 | 2; op: '>' | '>>'; target: string } | { fd: 2; op: 'dup1' } | { fd: 1; op: 'dup2' };

interface SimpleCommand {
  argv: string[];
  redirects: Redirect[];
}

export type Pipeline = SimpleCommand[];

export interface ListItem {
  /** How this pipeline is joined to the previous one. */
  join: ';' | '&&' | '||';
  pipeline: Pipeline;
}

type Token = { t: 'word'; v: string } | { t: 'op'; v: string };

export class ShellSyntaxError extends Error {}

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let word: string | null = null;
  const flush = (): void => {
    if (word !== null) out.push({ t: 'word', v: word });
    word = null;
  };
  while (i < src.length) {
    const c = src[i] as string;
    if (c === "'") {
      const end = src.indexOf("'", i + 1);
      if (end < 0) throw new ShellSyntaxError("unterminated '");
      word = (word ?? '') + src.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      let buf = '';
      while (j < src.length && src[j] !== '"') {
        if (src[j] === '\\' && j + 1 < src.length && '$`"\\\n'.includes(src[j + 1] as string)) {
          buf += src[j + 1];
          j += 2;
        } else {
          buf += src[j];
          j += 1;
        }
      }
      if (j >= src.length) throw new ShellSyntaxError('unterminated "');
      word = (word ?? '') + buf;
      i = j + 1;
    } else if (c === '\\') {
      if (i + 1 < src.length && src[i + 1] !== '\n') word = (word ?? '') + src[i + 1];
      i += 2;
    } else if (c === ' ' || c === '\t') {
      flush();
      i += 1;
    } else if (c === '\n' || c === ';') {
      flush();
      out.push({ t: 'op', v: ';' });
      i += 1;
    } else if (c === '&' || c === '|') {
      flush();
      if (src[i + 1] === c) {
        out.push({ t: 'op', v: c + c });
        i += 2;
      } else {
        // A lone `&` would background the command; sequential is close enough for our callers.
        out.push({ t: 'op', v: c === '&' ? ';' : '|' });
        i += 1;
      }
    } else if (c === '>' || ((c === '1' || c === '2') && src[i + 1] === '>' && word === null)) {
      flush();
      let fd = '1';
      if (c !== '>') {
        fd = c;
        i += 1;
      }
      i += 1;
      let op = '>';
      if (src[i] === '>') {
        op = '>>';
        i += 1;
      } else if (src[i] === '&') {
        op = '>&';
        i += 1;
      }
      out.push({ t: 'op', v: `${fd}${op}` });
    } else if (c === '<') {
      flush();
      out.push({ t: 'op', v: '<' });
      i += 1;
    } else if (c === '#' && word === null) {
      while (i < src.length && src[i] !== '\n') i += 1;
    } else {
      word = (word ?? '') + c;
      i += 1;
    }
  }
  flush();
  return out;
}

export function parse(src: string): ListItem[] {
  const toks = tokenize(src);
  const list: ListItem[] = [];
  let join: ListItem['join'] = ';';
  let pipeline: Pipeline = [];
  let cmd: SimpleCommand = { argv: [], redirects: [] };
  const endCommand = (): void => {
    if (cmd.argv.length === 0 && cmd.redirects.length === 0) {
      if (pipeline.length > 0) throw new ShellSyntaxError("syntax error: unexpected '|'");
      return;
    }
    pipeline.push(cmd);
    cmd = { argv: [], redirects: [] };
  };
  const endPipeline = (next: ListItem['join']): void => {
    endCommand();
    if (pipeline.length > 0) list.push({ join, pipeline });
    else if (next !== ';') throw new ShellSyntaxError(`syntax error: unexpected '${next}'`);
    pipeline = [];
    join = next;
  };
  for (let k = 0; k < toks.length; k++) {
    const tok = toks[k] as Token;
    if (tok.t === 'word') {
      cmd.argv.push(tok.v);
      continue;
    }
    switch (tok.v) {
      case ';':
        endPipeline(';');
        break;
      case '&&':
        endPipeline('&&');
        break;
      case '||':
        endPipeline('||');
        break;
      case '|':
        if (cmd.argv.length === 0) throw new ShellSyntaxError("syntax error: unexpected '|'");
        endCommand();
        break;
      default: {
        const target = toks[k + 1];
        if (!target || target.t !== 'word') throw new ShellSyntaxError(`syntax error: unexpected newline`);
        k += 1;
        if (tok.v === '<') break;
        const fd = tok.v.startsWith('2') ? 2 : 1;
        const op = tok.v.slice(1);
        if (op === '>&') {
          if (fd === 2 && target.v === '1') cmd.redirects.push({ fd: 2, op: 'dup1' });
          else if (fd === 1 && target.v === '2') cmd.redirects.push({ fd: 1, op: 'dup2' });
          else throw new ShellSyntaxError(`${target.v}: bad file descriptor`);
        } else {
          cmd.redirects.push({ fd, op: op === '>>' ? '>>' : '>', target: target.v });
        }
      }
    }
  }
  endCommand();
  if (pipeline.length > 0) list.push({ join, pipeline });
  else if (join !== ';') throw new ShellSyntaxError('syntax error: unexpected end of file');
  return list;
}
