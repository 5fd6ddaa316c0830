/**
 * What a project file is, when the host would load it: code it imports,
 * configuration it obeys, or an agent file whose stdio MCP servers it starts.
 */
export type GatedKind =
  | 'tool module'
  | 'agent module'
  | 'MCP servers'
  | 'agent settings'
  | 'policy'
  | 'prices'
  | 'models'
  | 'MCP commands'
  | 'remote agent auth';

/**
 * Asks whether a file may be loaded now (workspace trust). Absent where a
 * caller loads everything (library use); the CLI and the server always
 * pass one. Each answer is remembered, so a refusal can be reported once.
 */
export interface FileGate {
  /**
   * `file` is absolute; `detail` says what loading it would do (the MCP
   * commands an agent file starts), shown when a person is asked.
   */
  allows(file: string, kind: GatedKind, detail?: readonly string[]): Promise<boolean>;
  /** Why a file asked about was refused (`new`, `changed since trusted`, ...), for messages. */
  why?(file: string): string | undefined;
}
