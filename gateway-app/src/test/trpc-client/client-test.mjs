// Drives the gateway's /trpc endpoint with the real @trpc/client, through httpLink and
// httpBatchLink: queries, a mutation and errors. Usage: node client-test.mjs <gatewayUrl> <key>
import assert from 'node:assert/strict';
import { createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from '@trpc/client';

const [baseUrl, key] = process.argv.slice(2);
if (!baseUrl) {
  console.error('usage: node client-test.mjs <gatewayUrl> [key]');
  process.exit(2);
}
const headers = () => (key ? { authorization: `Bearer ${key}` } : {});

async function exercise(name, link) {
  // No AppRouter type: the untyped proxy sends exactly what a typed client would.
  const client = createTRPCClient({ links: [link({ url: `${baseUrl}/trpc`, headers })] });

  const health = await client.system.health.query();
  assert.equal(health.status, 'healthy');
  assert.equal(health.dependencies.calculator.grpcStatus, 'SERVING');

  assert.equal(await client.calculator.add.query({ a: 2, b: 3 }), 5);
  assert.equal(await client.calculator.divide.query([3, 2]), 1.5);

  const generated = await client.ai.generateText.mutate({ content: 'Hey there, nice to meet you', systemPrompt: 'default' });
  assert.equal(typeof generated.text, 'string');
  assert.ok(generated.text.length > 0);
  assert.equal(generated.finishReason, 'stop');
  assert.ok(generated.usage.totalTokens > 0);

  await assert.rejects(client.calculator.divide.query({ a: 1, b: 0 }), (error) => {
    assert.ok(error instanceof TRPCClientError, `not a TRPCClientError: ${error}`);
    assert.equal(error.data.code, 'BAD_REQUEST');
    assert.equal(error.data.httpStatus, 400);
    assert.equal(error.data.path, 'calculator.divide');
    return true;
  });
  await assert.rejects(client.no.such.query(), (error) => {
    assert.ok(error instanceof TRPCClientError);
    assert.equal(error.data.code, 'NOT_FOUND');
    return true;
  });

  // Issued together: httpBatchLink sends them as one batch (207 with a failing member).
  const settled = await Promise.allSettled([
    client.calculator.multiply.query({ a: 6, b: 7 }),
    client.calculator.divide.query({ a: 1, b: 0 }),
    client.test.simulateAI.query({ delayMs: 50 }),
  ]);
  assert.equal(settled[0].status, 'fulfilled');
  assert.equal(settled[0].value, 42);
  assert.equal(settled[1].status, 'rejected');
  assert.equal(settled[1].reason.data.code, 'BAD_REQUEST');
  assert.equal(settled[2].value.delayMs, 50);

  const mutations = await Promise.all([
    client.ai.generateText.mutate({ content: 'one' }),
    client.ai.generateText.mutate({ content: 'two', maxTokens: 20 }),
  ]);
  assert.equal(mutations.length, 2);
  console.log(`${name}: ok`);
}

try {
  await exercise('httpLink', httpLink);
  await exercise('httpBatchLink', httpBatchLink);
  console.log('all ok');
} catch (error) {
  console.error('FAILED:', error);
  process.exit(1);
}
