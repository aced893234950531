/** Node-only helpers shared by command-api and workers (they use node:crypto, so the browser never imports this entry). */
export {};
