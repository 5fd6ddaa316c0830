/**
 * The v0.3 fields a card also carries, so one card serves both protocols.
 * A v0.3 client (python a2a-sdk 0.3 behind ADK, Gemini CLI's remote agents,
 * older JS SDKs) reads the JSON-RPC endpoint from `url` and validates
 * security schemes by their `type`; a 1.0 client reads `supportedInterfaces`
 * and the scheme's `httpAuthSecurityScheme`, and ignores the rest. The SDK's
 * own cards for v0.3 clients are such supersets too (v0.3 fields with the 1.0
 * interfaces embedded); this one is built from the 1.0 side so 1.0 readers
 * see the card they always saw, plus fields they skip.
 */
const LEGACY_PROTOCOL_VERSION = '0.3.0';

/** The 1.0 card's JSON with the v0.3 fields added: nothing of it changes. */
export function withLegacyFields(card: Record<string, unknown>, rpcUrl: string): unknown {
  const schemes = card.securitySchemes;
  const requirements = card.securityRequirements;
  return {
    ...card,
    // 1.0 JSON leaves out empty lists; v0.3 requires these, so a strict reader refuses the card without them.
    skills: card.skills ?? [],
    defaultInputModes: card.defaultInputModes ?? [],
    defaultOutputModes: card.defaultOutputModes ?? [],
    capabilities: card.capabilities ?? {},
    protocolVersion: LEGACY_PROTOCOL_VERSION,
    url: rpcUrl,
    preferredTransport: 'JSONRPC',
    ...(isRecord(schemes) ? { securitySchemes: bothSpellings(schemes) } : {}),
    ...(Array.isArray(requirements) ? { security: requirements.map(legacyRequirement) } : {}),
  };
}

/** 1.0's `{schemes: {bearer: {list: [scopes]}}}` is v0.3's `{bearer: [scopes]}`. */
function legacyRequirement(requirement: unknown): Record<string, unknown> {
  const schemes = isRecord(requirement) ? requirement.schemes : undefined;
  if (!isRecord(schemes)) return {};
  return Object.fromEntries(
    Object.entries(schemes).map(([name, scopes]) => [
      name,
      isRecord(scopes) && Array.isArray(scopes.list) ? scopes.list : [],
    ]),
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An HTTP scheme in both spellings: 1.0's `httpAuthSecurityScheme` beside v0.3's `type`/`scheme`. */
function bothSpellings(schemes: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(schemes).map(([name, scheme]) => {
      const http = isRecord(scheme) ? scheme.httpAuthSecurityScheme : undefined;
      if (!isRecord(scheme) || !isRecord(http) || typeof http.scheme !== 'string')
        return [name, scheme];
      return [name, { ...scheme, type: 'http', scheme: http.scheme.toLowerCase() }];
    }),
  );
}
