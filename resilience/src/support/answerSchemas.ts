// The API's answer schemas live beside the routes that declare them (command-api's http/answerSchemas.ts).
export * from '../../../command-api/src/platform/http/answerSchemas.js';
