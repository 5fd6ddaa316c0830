// The names of the tools a run finishes through, shared by the runtime and the models that must call them.
export const COMPLETE_TASK = 'complete_task';
export const EMIT_VALUE = 'emit_value';
