package dev.junction.gateway.rpc;

import java.util.List;

import dev.junction.gateway.support.NodeScripts;
import dev.junction.gateway.support.RpcGateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The unmodified {@code @trpc/client} from npm against {@code /trpc}, through
 * {@code httpLink} and {@code httpBatchLink}:
 * {@code src/test/trpc-client/client-test.mjs} run by Node. Installs the client from its
 * lock file when it is not installed yet; skipped when Node is not on the PATH.
 */
class TrpcClientIntegrationTests {

	private static NodeScripts client;

	private static RpcGateway gateway;

	@BeforeAll
	static void start() throws Exception {
		client = NodeScripts.installed("src/test/trpc-client", "@trpc/client");
		gateway = RpcGateway.start(List.of("junction.gateway.auth.keys[0]=node-test-key"));
	}

	@AfterAll
	static void stop() {
		if (gateway != null) {
			gateway.close();
		}
	}

	@Test
	void trpcClientQueriesMutatesAndSeesErrorsThroughBothLinks() throws Exception {
		NodeScripts.Result result = client.run(List.of("node", "client-test.mjs", gateway.baseUrl(), "node-test-key"),
				120);
		assertThat(result.exitCode()).as(result.output()).isZero();
		assertThat(result.output()).contains("httpLink: ok", "httpBatchLink: ok", "all ok");
	}

}
