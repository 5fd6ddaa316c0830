import type { Tool } from '../types.js';
import { clipLine, formatCount } from './output-cap.js';
import { PAGE_TEXT_LIMITS } from '../web/web-limits.js';
import { TODO_STATUSES } from '../../contracts/todo-item.js';
import type { EditFileArgs } from './edit-file-run.js';
import type { GlobArgs } from './glob-run.js';
import type { GrepArgs } from './grep-run.js';
import type { LsArgs } from './ls-run.js';
import type { ReadFileArgs } from './read-file-run.js';
import type { WriteFileArgs } from './write-file-run.js';
import type { WrittenTodo } from '../todo/todo-list.js';

/*
 * What every built-in tool says about itself, without the code that runs it:
 * the package entry's tools (builtin-tools.ts) are made from these and load
 * each tool's module on its first call, and each tool's module is made from
 * the same spec, so the two cannot drift apart.
 */

/**
 * A tool without the code that runs it: what a registry and a display read.
 * Pattern checks (shell, web_fetch) stay with the tool's code, which the gate
 * loads (`Tool.load`) before it checks a narrowed call.
 */

/** The `path` of a tool that takes one file, `verb` saying what it does with it. */
const filePath = (verb: string) => ({
  type: 'string',
  minLength: 1,
  description: `File to ${verb}, relative to the workspace root (absolute paths inside the workspace also work).`,
});

export type ToolSpec<Args> = Omit<
  Tool<Args>,
  'execute' | 'approvalFloor' | 'outsidePatterns' | 'load'
>;

const PREVIEW_SNIPPET_CHARS = 40;

export const editFileSpec: ToolSpec<EditFileArgs> = {
  name: 'edit_file',
  description:
    'Replace exact text in an existing text file in the workspace. old_string must match the file ' +
    'exactly, including whitespace and indentation, and without the line-number prefixes read_file ' +
    'shows. It must occur exactly once unless replace_all is true; include surrounding lines to make ' +
    'it unique. Returns the number of replacements made.',
  inputSchema: {
    type: 'object',
    properties: {
      path: filePath('edit'),
      old_string: {
        type: 'string',
        minLength: 1,
        description: 'The exact text to replace, copied from the file.',
      },
      new_string: {
        type: 'string',
        description: 'The text to put in its place; may be empty to delete old_string.',
      },
      replace_all: {
        type: 'boolean',
        description:
          'Replace every occurrence instead of requiring exactly one. Defaults to false.',
      },
    },
    required: ['path', 'old_string', 'new_string'],
    additionalProperties: false,
  },
  sideEffect: true,
  defaultApproval: 'require',
  preview: (args) =>
    `Edit ${args.path}: replace ${args.replace_all ? 'every ' : ''}"${snippet(args.old_string)}" ` +
    `with "${snippet(args.new_string)}"`,
};

/** One line, bounded: approval cards show a hint of the edit, not the whole diff. */
function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= PREVIEW_SNIPPET_CHARS ? flat : `${flat.slice(0, PREVIEW_SNIPPET_CHARS)}…`;
}

export const globSpec: ToolSpec<GlobArgs> = {
  name: 'glob',
  description:
    'Find files in the workspace whose paths match a glob pattern, e.g. "**/*.ts" or ' +
    '"src/**/{index,main}.js". Returns matching file paths relative to the workspace root, sorted, ' +
    'one per line (ready to pass to read_file). node_modules and .git are always skipped; dotfiles ' +
    'are included. Use grep to search file contents instead.',
  inputSchema: {
    type: 'object',
    properties: {
      pattern: {
        type: 'string',
        minLength: 1,
        description:
          'Glob pattern relative to `path`: * and ? match within a name, ** across directories, ' +
          '[abc] a class, {a,b} alternatives; parentheses are literal. Must not be absolute or ' +
          'contain "..".',
      },
      path: {
        type: 'string',
        description:
          'Directory to search from, relative to the workspace root. Defaults to the workspace root.',
      },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  sideEffect: false,
  preview: (args) => `Find files matching ${args.pattern}${args.path ? ` in ${args.path}` : ''}`,
};

export const grepSpec: ToolSpec<GrepArgs> = {
  name: 'grep',
  description:
    'Search file contents in the workspace with a regular expression (JavaScript syntax, without ' +
    'backreferences or lookaround). Returns matching lines as "path:line: text" (path relative to ' +
    'the workspace root, line 1-based). Searches every text file under `path`, skipping ' +
    'node_modules, .git, symbolic links, binary files and files over 1 MB. Use glob to find files ' +
    'by name instead.',
  inputSchema: {
    type: 'object',
    properties: {
      pattern: {
        type: 'string',
        minLength: 1,
        description:
          'JavaScript regular expression source without slashes or flags, e.g. "function\\s+main" ' +
          'or "TODO|FIXME". Escape regex characters such as ( [ . * to match them literally. ' +
          'Backreferences (\\1) and lookaround ((?=…), (?<=…)) are not supported.',
      },
      path: {
        type: 'string',
        description:
          'File or directory to search, relative to the workspace root. Defaults to the workspace root.',
      },
      case_insensitive: {
        type: 'boolean',
        description: 'Match regardless of letter case. Defaults to false.',
      },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  sideEffect: false,
  preview: (args) =>
    `Search for /${args.pattern}/${args.case_insensitive ? 'i' : ''} in ${args.path ?? '.'}`,
};

export const lsSpec: ToolSpec<LsArgs> = {
  name: 'ls',
  description:
    'List the entries of a directory in the workspace. Directories come first and end with "/", ' +
    'files show their size in bytes, symbolic links end with "@". Use it to explore the layout ' +
    'before reading files; use glob to find files by name pattern across many directories.',
  inputSchema: {
    type: 'object',
    properties: {
      path: {
        type: 'string',
        description:
          'Directory to list, relative to the workspace root (absolute paths inside the workspace ' +
          'also work). Defaults to the workspace root.',
      },
    },
    additionalProperties: false,
  },
  sideEffect: false,
  preview: (args) => `List ${args.path ?? '.'}`,
};

/** read_file's caps: here, not in the code run per call, because the description states the line limit. */
export const READ_FILE_LIMITS = { maxItems: 2_000, maxChars: 100_000 };

export const readFileSpec: ToolSpec<ReadFileArgs> = {
  name: 'read_file',
  description:
    'Read a text file from the workspace. Each line is prefixed with its 1-based line number and a ' +
    'tab; the prefix is not part of the file (leave it out when quoting text to edit_file). Long ' +
    `files are cut at ${formatCount(READ_FILE_LIMITS.maxItems)} lines with a note; pass start_line and ` +
    'end_line to read a specific range. Binary files are refused.',
  inputSchema: {
    type: 'object',
    properties: {
      path: filePath('read'),
      start_line: {
        type: 'integer',
        minimum: 1,
        description: 'First line to return, 1-based and inclusive. Defaults to 1.',
      },
      end_line: {
        type: 'integer',
        minimum: 1,
        description:
          'Last line to return, 1-based and inclusive. Defaults to the end of the file; values past ' +
          'the end are clamped.',
      },
    },
    required: ['path'],
    additionalProperties: false,
  },
  sideEffect: false,
  preview: (args) => `Read ${args.path}${rangeLabel(args)}`,
};

function rangeLabel({ start_line, end_line }: ReadFileArgs): string {
  if (start_line === undefined && end_line === undefined) return '';
  return ` (lines ${start_line ?? 1}–${end_line ?? 'end'})`;
}

export const writeFileSpec: ToolSpec<WriteFileArgs> = {
  name: 'write_file',
  description:
    'Write a text file in the workspace, replacing its whole content. Creates the file and any ' +
    'missing parent directories; overwrites the file if it exists. Prefer edit_file for changing ' +
    'part of an existing file. Returns the path, whether the file was created or overwritten, and ' +
    'the number of bytes written.',
  inputSchema: {
    type: 'object',
    properties: {
      path: filePath('write'),
      content: {
        type: 'string',
        description: 'The complete new content of the file, written as UTF-8.',
      },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  sideEffect: true,
  // Writing the same content to the same path again leaves the same file.
  delivery: 'exactly-once',
  defaultApproval: 'require',
  preview: (args) => `Write ${formatCount(Buffer.byteLength(args.content))} bytes to ${args.path}`,
};

export interface ShellArgs {
  command: string;
  timeout_seconds?: number;
  description?: string;
}

/** The shell tool's time and output caps, which its description states. */
export interface ShellLimits {
  defaultTimeoutMs: number;
  maxTimeoutMs: number;
  maxOutputChars: number;
}

export const SHELL_DEFAULTS: ShellLimits = {
  defaultTimeoutMs: 120_000,
  maxTimeoutMs: 600_000,
  maxOutputChars: 30_000,
};

const SHELL_PREVIEW_CHARS = 200;

export function shellSpec(limits: ShellLimits = SHELL_DEFAULTS): ToolSpec<ShellArgs> {
  const { defaultTimeoutMs, maxTimeoutMs, maxOutputChars } = limits;
  return {
    name: 'shell',
    description:
      'Run a shell command with /bin/sh in the workspace directory and return its exit code, ' +
      'stdout and stderr. A non-zero exit code is reported, not raised. The command gets a ' +
      'minimal environment (no credentials), no stdin, and no terminal. It is stopped, with ' +
      `everything it started, after ${formatSeconds(defaultTimeoutMs)} unless timeout_seconds ` +
      `says otherwise (at most ${formatSeconds(maxTimeoutMs)}); background processes do not ` +
      `outlive it. Where a sandbox is available only the workspace is writable ` +
      `and there is no network unless the project opened it. Long output keeps its start and end (${formatCount(maxOutputChars)} ` +
      'characters in all).',
    inputSchema: {
      type: 'object',
      properties: {
        command: {
          type: 'string',
          minLength: 1,
          description: 'The command line to run, e.g. `git status --short` or `npm test 2>&1`.',
        },
        timeout_seconds: {
          type: 'number',
          exclusiveMinimum: 0,
          description: `Seconds before the command is stopped; values above ${maxTimeoutMs / 1000} are capped.`,
        },
        description: {
          type: 'string',
          description: 'A few words on what the command does, shown to the person approving it.',
        },
      },
      required: ['command'],
      additionalProperties: false,
    },
    sideEffect: true,
    defaultApproval: 'require',
    // Raw: the display escapes newlines and controls (`previewOf`), so nothing is hidden or merged.
    preview: (args) => clipLine(`Run: ${args.command}`, SHELL_PREVIEW_CHARS),
  };
}

export function formatSeconds(ms: number): string {
  return `${formatCount(Math.round(ms / 100) / 10)} s`;
}

export interface WebFetchArgs {
  url: string;
  max_chars?: number;
  prompt?: string;
}

export const webFetchSpec: ToolSpec<WebFetchArgs> = {
  name: 'web_fetch',
  description:
    'Fetch a web page (http or https) and return its text: HTML as Markdown with the page ' +
    'title, plain text, JSON, XML and Markdown as they are. Images, PDFs and other binary ' +
    `files are refused. The text is cut at max_chars (default ${formatCount(PAGE_TEXT_LIMITS.defaultChars)}). ` +
    'A status other than 2xx is returned with the body, not raised. Private, loopback and ' +
    'link-local addresses are refused unless the operator allowed them.',
  inputSchema: {
    type: 'object',
    properties: {
      url: {
        type: 'string',
        minLength: 1,
        maxLength: 8_192,
        description: 'Absolute http:// or https:// URL to fetch.',
      },
      max_chars: {
        type: 'integer',
        minimum: 1_000,
        maximum: PAGE_TEXT_LIMITS.maxChars,
        description: `Most characters of page text to return (default ${formatCount(PAGE_TEXT_LIMITS.defaultChars)}).`,
      },
      prompt: {
        type: 'string',
        description:
          'What you want from the page; echoed back as `question` with the result to keep the intent.',
      },
    },
    required: ['url'],
    additionalProperties: false,
  },
  sideEffect: false,
  preview: (args) => `Fetch ${args.url}`,
};

export const TODO_WRITE_TOOL = 'todo_write';

export interface TodoWriteArgs {
  todos: WrittenTodo[];
}

const MAX_TODO_ITEMS = 100;
const MAX_TODO_TEXT = 500;

export const todoWriteSpec: ToolSpec<TodoWriteArgs> = {
  name: TODO_WRITE_TOOL,
  description:
    'Keep your plan for this task as a todo list, shown to the person following the run. Each ' +
    'call replaces the whole list: send every item every time. Use it for work of three or more ' +
    'steps; mark an item in_progress before you start it (one at a time) and completed as soon ' +
    'as it is done. It changes nothing outside the run.',
  inputSchema: {
    type: 'object',
    properties: {
      todos: {
        type: 'array',
        maxItems: MAX_TODO_ITEMS,
        description: 'The whole list, in order; it replaces the previous one ([] clears it).',
        items: {
          // Other fields (the older TodoWrite's `priority`) are ignored, not refused.
          type: 'object',
          properties: {
            content: {
              type: 'string',
              maxLength: MAX_TODO_TEXT,
              description: 'What to do, in the imperative ("Run the tests").',
            },
            description: {
              type: 'string',
              maxLength: MAX_TODO_TEXT,
              description: 'The same as content (Gemini CLI spelling); give one of the two.',
            },
            status: {
              type: 'string',
              enum: [...TODO_STATUSES],
              description: 'Default pending.',
            },
            id: { type: 'string', description: 'A stable id for the item (optional).' },
            activeForm: {
              type: 'string',
              maxLength: MAX_TODO_TEXT,
              description: 'The item while it runs ("Running the tests"), optional.',
            },
          },
        },
      },
    },
    required: ['todos'],
    additionalProperties: false,
  },
  sideEffect: false,
  preview: (args) => `Update the plan (${args.todos.length} items)`,
};
