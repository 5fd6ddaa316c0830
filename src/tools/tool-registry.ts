import { ConfigError } from '../errors/cadre-error.js';
import type { ToolDeclaration } from '../model/types.js';
import type { Tool } from './types.js';

/** A set of tools by name. Each run gets its own, holding only what it was granted. */
export class ToolRegistry {
  private readonly byName: ReadonlyMap<string, Tool>;

  constructor(tools: Iterable<Tool>) {
    const map = new Map<string, Tool>();
    for (const tool of tools) {
      if (map.has(tool.name)) throw new ConfigError(`Two tools are named '${tool.name}'.`);
      map.set(tool.name, tool);
    }
    this.byName = map;
  }

  get(name: string): Tool | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  get size(): number {
    return this.byName.size;
  }

  /** The tools as the model sees them; `cache` (one per runtime) avoids rebuilding them every run. */
  declarations(cache?: WeakMap<Tool, ToolDeclaration>): ToolDeclaration[] {
    return [...this.byName.values()].map((tool) => {
      const known = cache?.get(tool);
      if (known) return known;
      const declaration = {
        name: tool.name,
        description: tool.description,
        parameters: tool.inputSchema,
      };
      cache?.set(tool, declaration);
      return declaration;
    });
  }

  /**
   * A registry with only the granted tools. A name that is not available is
   * a configuration error: an agent must never start with a silently missing tool.
   */
  restrictTo(granted: readonly string[]): ToolRegistry {
    const missing = granted.filter((name) => !this.byName.has(name));
    if (missing.length > 0) {
      throw new ConfigError(
        `Unknown tool${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}. Available: ${this.names().join(', ') || '(none)'}.`,
      );
    }
    return new ToolRegistry(granted.map((name) => this.byName.get(name) as Tool));
  }
}
