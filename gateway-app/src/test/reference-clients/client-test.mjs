// Drives the gateway with the clients that simple-rpc-ai-backend 0.1.8 publishes, unmodified:
// RPCClient (JSON-RPC over /rpc), createTypedAIClient and @trpc/client with superjson (/trpc).
// Every procedure of the reference's router that the gateway serves is called at least once.
// Usage: node client-test.mjs <openGatewayUrl> <securedGatewayUrl> <key> <adminKey>
//   open: no gateway keys, tRPC transformer superjson; secured: gateway keys and an admin key.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import axios from 'axios';
import { RPCClient, createTypedAIClient } from 'simple-rpc-ai-backend/client';
import { createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from '@trpc/client';
import superjson from 'superjson';

const [openUrl, securedUrl, key, adminKey] = process.argv.slice(2);
if (!adminKey) {
  console.error('usage: node client-test.mjs <openGatewayUrl> <securedGatewayUrl> <key> <adminKey>');
  process.exit(2);
}

// The client id the gateway gives a configured key (as its logs name it), for admin.getUserInfo.
const userId = `key:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;

async function rejectsWith(promise, check) {
  await assert.rejects(promise, (error) => {
    check(error);
    return true;
  });
}

async function jsonRpc() {
  const client = new RPCClient(openUrl);

  const health = await client.request('system.health');
  assert.equal(health.status, 'healthy');
  assert.ok(!Number.isNaN(Date.parse(health.timestamp)));
  assert.equal(typeof health.uptime, 'number');
  assert.equal(typeof health.version, 'string');

  const simulated = await client.request('test.simulateAI', { delay: 100, message: 'Load test' });
  assert.equal(simulated.success, true);
  assert.equal(simulated.message, 'Load test');
  assert.equal(simulated.simulatedDelay, 100);
  assert.ok(simulated.actualDelay >= 100, `actualDelay ${simulated.actualDelay}`);
  assert.ok(!Number.isNaN(Date.parse(simulated.timestamp)));

  const generated = await client.request('ai.generateText', {
    content: 'Hey there, nice to meet you', systemPrompt: 'default', provider: 'mock',
    options: { maxTokens: 50, temperature: 0.3 },
  });
  assert.equal(generated.success, true);
  assert.ok(generated.data.content.length > 0);
  assert.equal(generated.data.provider, 'mock');
  assert.ok(generated.data.usage.totalTokens > 0);
  assert.equal(generated.data.finishReason, 'stop');

  const providers = await client.request('ai.listProviders');
  assert.ok(providers.providers.some((provider) => provider.name === 'mock'));
  const byok = await client.request('ai.listProvidersBYOK');
  assert.deepEqual(byok.providers, []);
  const models = await client.request('ai.listAllowedModels', { provider: 'mock' });
  assert.equal(models.count, models.models.length);
  const registry = await client.request('ai.getRegistryHealth');
  assert.equal(registry.status, 'healthy');
  const validation = await client.request('ai.validateProvider', { provider: 'openai', apiKey: 'sk-0123456789abcdefghijkl' });
  assert.equal(validation.isValid, true);

  assert.equal(await client.request('calculator.add', { a: 2, b: 3 }), 5);
  await client.notify('test.simulateAI', { delay: 0 });

  await rejectsWith(client.request('no.such.method', {}), (error) => assert.equal(error.code, -32601));
  await rejectsWith(client.request('test.simulateAI', { delay: 1e20 }), (error) => {
    assert.equal(error.code, -32602);
    assert.equal(error.message, 'Invalid params');
    assert.match(error.data.message, /delay/);
  });
  await rejectsWith(client.request('ai.generateText', { content: 'Hi', systemPrompt: 'default', provider: 'google' }),
    (error) => assert.equal(error.code, -32602));
  await rejectsWith(client.request('admin.healthCheck'), (error) => {
    assert.equal(error.code, -32001);
    assert.equal(error.message, 'Unauthorized');
  });

  // Against a gateway with keys, RPCClient sends the key the way axios users set headers.
  axios.defaults.headers.common.Authorization = `Bearer ${adminKey}`;
  try {
    const secured = new RPCClient(securedUrl);
    const check = await secured.request('admin.healthCheck');
    assert.equal(check.checks.server, 'healthy');
    assert.equal(typeof check.allHealthy, 'boolean');
    const info = await secured.request('admin.getUserInfo', { userId, includePermissions: true, includeUsage: true });
    assert.equal(info.userId, userId);
    assert.equal(info.type, 'user');
    assert.ok(info.permissions.includes('ai:generate'));
    assert.ok(!JSON.stringify(info).includes(key));
    await rejectsWith(secured.request('admin.getUserInfo', { userId: 'nobody-at-all' }), (error) => {
      assert.equal(error.code, -32602);
      assert.match(error.data.message, /userId/);
    });
    axios.defaults.headers.common.Authorization = `Bearer ${key}`;
    await rejectsWith(secured.request('admin.healthCheck'), (error) => assert.equal(error.code, -32002));
  }
  finally {
    delete axios.defaults.headers.common.Authorization;
  }
  console.log('RPCClient: ok');
}

async function typedAiClient(name, link) {
  const client = createTypedAIClient({ links: [link({ url: `${openUrl}/trpc`, transformer: superjson })] });
  const generated = await client.ai.generateText.mutate({ content: 'Compose a greeting.', systemPrompt: 'default' });
  assert.equal(generated.success, true);
  assert.ok(generated.data.content.length > 0);
  const [providers, byok, models, allModels, registry] = await Promise.all([
    client.ai.listProviders.query(),
    client.ai.listProvidersBYOK.query(),
    client.ai.listAllowedModels.query({ provider: 'mock' }),
    client.ai.listAllowedModels.query(),
    client.ai.getRegistryHealth.query(),
  ]);
  assert.ok(providers.providers.length > 0);
  assert.deepEqual(byok.providers, []);
  assert.equal(models.provider, 'mock');
  assert.ok(Array.isArray(allModels.mock));
  assert.equal(registry.status, 'healthy');
  const validation = await client.ai.validateProvider.mutate({ provider: 'anthropic', apiKey: 'short' });
  assert.equal(validation.isValid, false);
  await rejectsWith(client.ai.generateText.mutate({ content: 'Hi', systemPrompt: 'default', options: { maxTokens: 1e20 } }),
    (error) => {
      assert.ok(error instanceof TRPCClientError, `not a TRPCClientError: ${error}`);
      assert.equal(error.data.code, 'BAD_REQUEST');
      assert.equal(error.data.httpStatus, 400);
    });
  console.log(`createTypedAIClient (${name}): ok`);
}

async function trpcWithSuperjson(name, link) {
  const client = createTRPCClient({ links: [link({ url: `${openUrl}/trpc`, transformer: superjson })] });
  const health = await client.system.health.query();
  assert.equal(health.status, 'healthy');
  // superjson carries what JSON cannot: a bigint delay and an undefined message.
  const simulated = await client.test.simulateAI.mutate({ delay: 40n, message: undefined });
  assert.equal(simulated.simulatedDelay, 40);
  assert.equal(simulated.message, 'Test message');
  const settled = await Promise.allSettled([
    client.calculator.add.query({ a: 2, b: 3 }),
    client.calculator.divide.query({ a: 1, b: 0 }),
    client.no.such.query(),
  ]);
  assert.equal(settled[0].value, 5);
  assert.equal(settled[1].reason.data.code, 'BAD_REQUEST');
  assert.equal(settled[2].reason.data.code, 'NOT_FOUND');
  await rejectsWith(client.admin.healthCheck.query(), (error) => assert.equal(error.data.code, 'UNAUTHORIZED'));

  const admin = createTRPCClient({
    links: [link({ url: `${securedUrl}/trpc`, transformer: superjson, headers: { authorization: `Bearer ${adminKey}` } })],
  });
  const [check, status] = await Promise.all([admin.admin.healthCheck.query(), admin.admin.status.query({ detailed: true })]);
  assert.equal(check.checks.calculator, 'healthy');
  assert.equal(check.allHealthy, true);
  assert.ok(status.memory.used > 0);
  const [statistics, config, cleared] = await Promise.all([admin.admin.statistics.query({ days: 7 }),
    admin.admin.getConfig.query({ section: 'ai' }), admin.admin.clearCache.mutate({ target: 'all' })]);
  assert.equal(statistics.period.days, 7);
  assert.equal(typeof statistics.system.totalRequests, 'number');
  assert.ok(config.config.ai.providers);
  assert.equal(config.config.server, undefined);
  assert.equal(cleared.success, true);
  const info = await admin.admin.getUserInfo.query({ userId, includePermissions: true });
  assert.equal(info.type, 'user');
  assert.deepEqual(info.permissions, ['ai:generate', 'models:*']);
  await rejectsWith(admin.admin.getUserInfo.query({ userId: 'nobody-at-all' }), (error) => {
    assert.ok(error instanceof TRPCClientError, `not a TRPCClientError: ${error}`);
    assert.equal(error.data.code, 'NOT_FOUND');
    assert.equal(error.data.httpStatus, 404);
  });
  const user = createTRPCClient({
    links: [link({ url: `${securedUrl}/trpc`, transformer: superjson, headers: { authorization: `Bearer ${key}` } })],
  });
  await rejectsWith(user.admin.healthCheck.query(), (error) => assert.equal(error.data.code, 'FORBIDDEN'));
  await rejectsWith(user.admin.getUserInfo.query({ userId }), (error) => assert.equal(error.data.code, 'FORBIDDEN'));
  console.log(`@trpc/client + superjson (${name}): ok`);
}

try {
  await jsonRpc();
  await typedAiClient('httpBatchLink', httpBatchLink);
  await typedAiClient('httpLink', httpLink);
  await trpcWithSuperjson('httpBatchLink', httpBatchLink);
  await trpcWithSuperjson('httpLink', httpLink);
  console.log('all ok');
} catch (error) {
  console.error('FAILED:', error);
  process.exit(1);
}
