export * from './mocked-tools.js';
export * from './user-turns.js';
export * from './prompt-agent-conversation.js';
