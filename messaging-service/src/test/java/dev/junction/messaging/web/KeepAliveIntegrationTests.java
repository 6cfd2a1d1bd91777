package dev.junction.messaging.web;

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

import dev.junction.messaging.support.IntegrationTestSupport;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several clients, each on one keep-alive connection, sending database-backed requests
 * back to back: every request is answered. A response completed off its connection's
 * event loop used to leave the next request on that connection unread, about one in a few
 * thousand.
 */
class KeepAliveIntegrationTests extends IntegrationTestSupport {

	private static final int CLIENTS = 4;

	private static final int REQUESTS_PER_CLIENT = 1500;

	@Test
	void answersEveryRequestOnBusyKeepAliveConnections() throws Exception {
		ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
		try {
			List<Future<List<String>>> results = new ArrayList<>();
			for (int i = 0; i < CLIENTS; i++) {
				results.add(clients.submit(this::sendBackToBack));
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

	private List<String> sendBackToBack() throws Exception {
		List<String> failures = new ArrayList<>();
		// One client per thread: its single keep-alive connection carries every request.
		HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
		String[] paths = { "/health", "/instances?limit=1", "/events?limit=1" };
		for (int i = 0; i < REQUESTS_PER_CLIENT && failures.size() < 3; i++) {
			HttpRequest request = HttpRequest
				.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/v2" + paths[i % paths.length]))
				.header("x-api-key", ADMIN_KEY)
				.timeout(Duration.ofSeconds(5))
				.build();
			try {
				int status = client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
				if (status != 200) {
					failures.add(request.uri() + " answered " + status);
				}
			}
			catch (HttpTimeoutException ex) {
				failures.add(request.uri() + " not answered within 5 s");
			}
		}
		return failures;
	}

}
