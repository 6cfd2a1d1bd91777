package dev.junction.gateway.rpc;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.junction.gateway.support.RunningCalculator;
import dev.junction.gateway.support.RunningGateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several clients, each on one keep-alive connection, calling the calculator and the
 * health check through the gateway back to back: every request is answered. gRPC answers
 * arrive on grpc-java's threads, not on the connection's event loop.
 */
class KeepAliveIntegrationTests {

	private static final int CLIENTS = 4;

	private static final int REQUESTS_PER_CLIENT = 1500;

	private static RunningCalculator calculator;

	private static RunningGateway gateway;

	@BeforeAll
	static void start() {
		calculator = RunningCalculator.start();
		gateway = RunningGateway.start(List.of("junction.gateway.auth.keys[0]=keep-alive-key",
				"junction.gateway.auth.admin-keys[0]=keep-alive-admin-key",
				"junction.gateway.calculator.address=" + calculator.address(),
				"junction.gateway.calculator.health-cache-ttl=1ms"));
	}

	@AfterAll
	static void stop() {
		gateway.close();
		calculator.close();
	}

	@Test
	void answersEveryRequestOnBusyKeepAliveConnections() throws Exception {
		ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
		try {
			List<Future<List<String>>> results = new ArrayList<>();
			for (int i = 0; i < CLIENTS; i++) {
				results.add(clients.submit(KeepAliveIntegrationTests::sendBackToBack));
			}
			List<String> failures = new ArrayList<>();
			for (Future<List<String>> result : results) {
				failures.addAll(result.get(5, TimeUnit.MINUTES));
			}
			assertThat(failures).isEmpty();
		}
		finally {
			clients.shutdownNow();
		}
	}

	private static List<String> sendBackToBack() throws Exception {
		List<String> failures = new ArrayList<>();
		// One client per thread: its single keep-alive connection carries every request.
		HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
		for (int i = 0; i < REQUESTS_PER_CLIENT && failures.size() < 3; i++) {
			HttpRequest request = (i % 2 == 0)
					? HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/rpc"))
						.header("Authorization", "Bearer keep-alive-key")
						.header("Content-Type", "application/json")
						.timeout(Duration.ofSeconds(10))
						.POST(HttpRequest.BodyPublishers
							.ofString("{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":[" + i
									+ ",1],\"id\":" + i + "}"))
						.build()
					: HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/trpc/admin.healthCheck"))
						.header("Authorization", "Bearer keep-alive-admin-key")
						.timeout(Duration.ofSeconds(10))
						.GET()
						.build();
			try {
				HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
				if (response.statusCode() != 200 || !response.body().contains("result")) {
					failures.add("call " + i + " answered " + response.statusCode() + ": " + response.body());
				}
			}
			catch (HttpTimeoutException ex) {
				failures.add("call " + i + " not answered within 10 s");
			}
		}
		return failures;
	}

}
