// The reference server of document 000, set up as the package's basic example server is:
// createRpcAiServer with JSON-RPC and tRPC on, MCP off, the 'default' system prompt, and a
// test router whose simulateAI mutation waits 'delay' ms (100 to 5000, default 1500).
// Differences for the benchmark: it listens on 127.0.0.1 only, and its rate limit (1,000
// requests per 15 minutes by default) is raised so that it stays in the request path
// without refusing anything. Usage: PORT=8000 node server.mjs
import http from 'node:http';
import { createRpcAiServer, router, publicProcedure } from 'simple-rpc-ai-backend';
import { z } from 'zod';

// createRpcAiServer listens on every interface: bind the port to loopback instead.
const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function (port, ...rest) {
  return (typeof port === 'number' || typeof port === 'string') && typeof rest[0] === 'function'
    ? listen.call(this, port, '127.0.0.1', ...rest)
    : listen.call(this, port, ...rest);
};

const test = router({
  simulateAI: publicProcedure
    .input(z.object({
      delay: z.number().min(100).max(5000).default(1500).optional(),
      message: z.string().default('Test message').optional(),
    }))
    .mutation(async ({ input }) => {
      const delay = input.delay || 1500;
      const started = performance.now();
      await new Promise((resolve) => setTimeout(resolve, delay));
      return {
        success: true,
        message: input.message,
        simulatedDelay: delay,
        actualDelay: Math.round(performance.now() - started),
        timestamp: new Date().toISOString(),
      };
    }),
});

const server = createRpcAiServer({
  port: Number(process.env.PORT || 8000),
  providers: ['anthropic', 'openai', 'google', 'openrouter'],
  protocols: { jsonRpc: true, tRpc: true },
  mcp: { enabled: false },
  systemPrompts: { default: 'You are a helpful AI assistant.' },
  rateLimit: { windowMs: 15 * 60 * 1000, max: 1_000_000_000 },
  customRouters: { test },
});
await server.start();
console.log('reference server ready');
