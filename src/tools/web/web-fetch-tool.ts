import { traceHeaders } from '../../contracts/trace-carrier.js';
import { ToolExecutionError } from '../../errors/index.js';
import { webFetchSpec, type WebFetchArgs } from '../builtin/builtin-tool-specs.js';
import { defineTool, type Tool } from '../types.js';
import { outsideDomains } from './domain-patterns.js';
import type { Resolver } from './guarded-lookup.js';
import { FETCH_DEFAULTS, PAGE_TEXT_LIMITS } from './web-limits.js';

export type { WebFetchArgs };

export interface WebFetchResult {
  url: string;
  final_url: string;
  status: number;
  content_type: string;
  title?: string;
  content: string;
  truncated: boolean;
  /** The caller's `prompt`, echoed so the model keeps what it wanted from the page. */
  question?: string;
}

export interface WebFetchToolOptions {
  /** Where `CADRE_FETCH_ALLOW` is read, at each call; process.env by default. */
  env?: NodeJS.ProcessEnv;
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  userAgent?: string;
  /** DNS for host names; the system resolver by default. */
  resolve?: Resolver;
}

export function createWebFetchTool(options: WebFetchToolOptions = {}): Tool {
  const limits = {
    maxBytes: options.maxBytes ?? FETCH_DEFAULTS.maxBytes,
    timeoutMs: options.timeoutMs ?? FETCH_DEFAULTS.timeoutMs,
    maxRedirects: options.maxRedirects ?? FETCH_DEFAULTS.maxRedirects,
  };
  return defineTool<WebFetchArgs>({
    ...webFetchSpec,
    outsidePatterns: (args, patterns) => outsideDomains(args.url, patterns),
    async execute(args, ctx): Promise<WebFetchResult> {
      // Loaded on first use: address parsing and HTML conversion cost start-up time.
      const [{ throwIfAborted }, { parseFetchAllow }, { fetchPage }, { pageToText, readableType }] =
        await Promise.all([
          import('../builtin/abort.js'),
          import('./address-rules.js'),
          import('./fetch-page.js'),
          import('./page-to-text.js'),
        ]);
      throwIfAborted(ctx.signal);
      // Read per call, so a changed allow-list applies without rebuilding the tool.
      const allow = parseFetchAllow((options.env ?? process.env).CADRE_FETCH_ALLOW);
      const page = await fetchPage(args.url, {
        ...limits,
        allow,
        signal: ctx.signal,
        wantsBody: readableType,
        // The run's trace goes on to the page's server, as HTTP instrumentation would send it.
        headers: traceHeaders(ctx.traceCarrier?.()),
        ...(options.userAgent === undefined ? {} : { userAgent: options.userAgent }),
        ...(options.resolve === undefined ? {} : { resolve: options.resolve }),
      });
      const text = pageToText(page, args.max_chars ?? PAGE_TEXT_LIMITS.defaultChars);
      if (text.kind === 'binary') {
        throw new ToolExecutionError(
          `${page.finalUrl} is ${text.mimeType}, which web_fetch does not read; it returns text ` +
            '(HTML, plain text, JSON, XML, Markdown) only.',
        );
      }
      return {
        url: page.url,
        final_url: page.finalUrl,
        status: page.status,
        content_type: page.contentType,
        ...(text.title === undefined ? {} : { title: text.title }),
        content: text.content,
        truncated: text.truncated,
        ...(args.prompt === undefined ? {} : { question: args.prompt }),
      };
    },
  });
}

/** web_fetch with the defaults; `CADRE_FETCH_ALLOW` is read from process.env at each call. */
export const webFetchTool = createWebFetchTool();
