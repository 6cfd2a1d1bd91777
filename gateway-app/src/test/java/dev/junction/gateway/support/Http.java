package dev.junction.gateway.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Raw HTTP calls, for requests an SDK would refuse to send. */
public final class Http {

	/**
	 * One client (and so one keep-alive pool) per server port. A server started later on
	 * a port that an earlier, closed server used must not be reached over that server's
	 * stale pooled connection, so {@link #forget(int)} drops the client when a server
	 * closes.
	 */
	private static final Map<Integer, HttpClient> CLIENTS = new ConcurrentHashMap<>();

	private Http() {
	}

	public static HttpResponse<String> post(String url, String authorization, String body) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body));
		if (authorization != null) {
			request.header("Authorization", authorization);
		}
		return send(request.build());
	}

	/** A JSON {@code POST} of {@code body} to {@code url} with these headers. */
	public static HttpResponse<String> postWithHeaders(String url, Map<String, String> headers, String body) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body));
		headers.forEach(request::header);
		return send(request.build());
	}

	public static HttpResponse<String> get(String url) {
		return get(url, null);
	}

	public static HttpResponse<String> get(String url, String authorization) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET();
		if (authorization != null) {
			request.header("Authorization", authorization);
		}
		return send(request.build());
	}

	/** Drops the connections kept to a server that is closing. */
	public static void forget(int port) {
		CLIENTS.remove(port);
	}

	/** Sends {@code request} on the client of its server's port. */
	public static HttpResponse<String> send(HttpRequest request) {
		HttpClient client = CLIENTS.computeIfAbsent(request.uri().getPort(),
				(port) -> HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build());
		try {
			return client.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
