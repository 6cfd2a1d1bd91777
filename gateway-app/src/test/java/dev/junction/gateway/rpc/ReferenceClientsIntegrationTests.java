package dev.junction.gateway.rpc;

import java.util.List;

import dev.junction.gateway.support.NodeScripts;
import dev.junction.gateway.support.RunningCalculator;
import dev.junction.gateway.support.RunningGateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The clients published in {@code simple-rpc-ai-backend} 0.1.8 ({@code RPCClient},
 * {@code createTypedAIClient}) and {@code @trpc/client} with superjson, unmodified,
 * against the gateway: {@code src/test/reference-clients/client-test.mjs} calls every
 * procedure of the reference's router that the gateway serves, and fails on any call that
 * fails. Skipped when Node is not on the PATH.
 */
class ReferenceClientsIntegrationTests {

	private static NodeScripts clients;

	private static RunningCalculator calculator;

	private static RunningGateway open;

	private static RunningGateway secured;

	@BeforeAll
	static void start() throws Exception {
		clients = NodeScripts.installed("src/test/reference-clients", "simple-rpc-ai-backend");
		calculator = RunningCalculator.start();
		open = RunningGateway.start(List.of("junction.gateway.rpc.trpc-transformer=superjson",
				"junction.gateway.calculator.address=" + calculator.address()));
		secured = RunningGateway.start(List.of("junction.gateway.rpc.trpc-transformer=superjson",
				"junction.gateway.auth.keys[0]=reference-key", "junction.gateway.auth.admin-keys[0]=reference-admin",
				"junction.gateway.calculator.address=" + calculator.address()));
	}

	@AfterAll
	static void stop() {
		for (AutoCloseable each : new AutoCloseable[] { secured, open, calculator }) {
			if (each != null) {
				try {
					each.close();
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			}
		}
	}

	@Test
	void referenceClientsCallEveryProcedureUnmodified() throws Exception {
		NodeScripts.Result result = clients.run(List.of("node", "client-test.mjs", open.baseUrl(), secured.baseUrl(),
				"reference-key", "reference-admin"), 180);
		assertThat(result.exitCode()).as(result.output()).isZero();
		assertThat(result.output()).contains("RPCClient: ok", "createTypedAIClient (httpBatchLink): ok",
				"createTypedAIClient (httpLink): ok", "@trpc/client + superjson (httpBatchLink): ok",
				"@trpc/client + superjson (httpLink): ok", "all ok");
	}

}
