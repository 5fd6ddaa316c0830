import { getLlama, LlamaChat, LlamaText, resolveChatWrapper } from 'node-llama-cpp';
const llama = await getLlama({ gpu: false, build: 'never' });
const model = await llama.loadModel({ modelPath: '/tmp/lm/tiny.gguf' });
const ctx = await model.createContext({ contextSize: 2048, sequences: 2, threads: 1 });
const inner = resolveChatWrapper(model);
console.log(inner.wrapperName, JSON.stringify(inner.settings.functions.call));
const forced = new Proxy(inner, { get(t, p) {
  if (p === 'generateContextState') return (o) => { const s = t.generateContextState(o); return { ...s, contextText: LlamaText([s.contextText, t.settings.functions.call.prefix]), functionCall: { initiallyEngaged: true, disengageInitiallyEngaged: [] } }; };
  const v = Reflect.get(t, p, t); return typeof v === 'function' ? v.bind(t) : v; } });
const chat = new LlamaChat({ contextSequence: ctx.getSequence(), chatWrapper: forced });
const functions = { get_weather: { description: 'Weather of a city', params: { type: 'object', properties: { city: { enum: ['Paris', 'Oslo'] }, days: {type:'integer'} }, required:['city'] } },
  complete_task: { description: 'finish', params: { type: 'object', properties: { result: { type: 'object', properties: { answer: { type: 'string', maxLength: 20 } , n: {type:'number'}}, required: ['answer','n'] } }, required: ['result'] } } };
const history = [{ type: 'system', text: 'You are helpful.' }, { type: 'user', text: 'What is the weather in Paris?' }, { type: 'model', response: [] }];
for (let i=0;i<3;i++){
const t = Date.now();
const res = await chat.generateResponse(history, { functions, maxTokens: 200, temperature: 0.8, seed: i, onTextChunk: (c) => process.stdout.write('[' + c + ']') });
console.log('\n', Date.now() - t, 'ms', JSON.stringify(res.functionCalls), JSON.stringify(res.response), res.metadata.stopReason);
}
const ctxText = forced.generateContextState({chatHistory: history, availableFunctions: functions}).contextText;
console.log(ctxText.toString().slice(-300));
