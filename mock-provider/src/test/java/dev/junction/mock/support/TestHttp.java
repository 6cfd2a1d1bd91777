package dev.junction.mock.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.junction.mock.MockProviderServer;
import io.netty.handler.codec.http.HttpHeaders;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A raw HTTP client for the emulator's tests: whole bodies as text, streams as the exact
 * SSE events.
 */
public final class TestHttp {

	private static final JsonMapper JSON = JsonMapper.shared();

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private final HttpClient client;

	private TestHttp(HttpClient client) {
		this.client = client;
	}

	/** A client for a server. */
	public static TestHttp of(MockProviderServer server) {
		return of(server.baseUrl());
	}

	/** A client for a base URL. */
	public static TestHttp of(String baseUrl) {
		return new TestHttp(HttpClient.create().baseUrl(baseUrl));
	}

	/** POSTs a body and waits for the whole response. */
	public Response post(String path, String body, Map<String, String> headers) {
		return exchange(client.headers((h) -> headers.forEach(h::set))
			.post()
			.uri(path)
			.send(ByteBufFlux.fromString(Mono.just(body))));
	}

	/** POSTs a body with no extra header. */
	public Response post(String path, String body) {
		return post(path, body, Map.of());
	}

	/** GETs a path. */
	public Response get(String path, Map<String, String> headers) {
		return exchange(client.headers((h) -> headers.forEach(h::set)).get().uri(path));
	}

	/** DELETEs a path. */
	public Response delete(String path) {
		return exchange(client.delete().uri(path));
	}

	/**
	 * POSTs a body and emits the response body's chunks as they arrive, as text; errors
	 * when the connection breaks before the body is complete.
	 */
	public Flux<String> stream(String path, String body, Map<String, String> headers) {
		return client.headers((h) -> headers.forEach(h::set))
			.post()
			.uri(path)
			.send(ByteBufFlux.fromString(Mono.just(body)))
			.responseContent()
			.asString();
	}

	private Response exchange(HttpClient.ResponseReceiver<?> request) {
		return request
			.responseSingle((response, content) -> content.asString()
				.defaultIfEmpty("")
				.map((text) -> new Response(response.status().code(), response.responseHeaders(), text)))
			.block(TIMEOUT);
	}

	/** Parses a JSON text. */
	public static JsonNode json(String text) {
		return JSON.readTree(text);
	}

	/** Splits an SSE body into its events, in order. */
	public static List<SseEvent> events(String body) {
		List<SseEvent> events = new ArrayList<>();
		for (String block : body.split("\n\n")) {
			if (block.isBlank()) {
				continue;
			}
			String name = null;
			StringBuilder data = new StringBuilder();
			for (String line : block.split("\n")) {
				if (line.startsWith("event: ")) {
					name = line.substring("event: ".length());
				}
				else if (line.startsWith("data: ")) {
					data.append(line.substring("data: ".length()));
				}
				else {
					throw new IllegalStateException("Unexpected SSE line: " + line);
				}
			}
			events.add(new SseEvent(name, data.toString()));
		}
		return events;
	}

	/** A complete response. */
	public record Response(int status, HttpHeaders headers, String body) {

		/** The body as JSON. */
		public JsonNode json() {
			return TestHttp.json(body);
		}

		/** The SSE events of the body. */
		public List<SseEvent> events() {
			return TestHttp.events(body);
		}
	}

	/** One SSE event: its {@code event:} name (or null) and its {@code data:}. */
	public record SseEvent(String name, String data) {

		/** The data as JSON. */
		public JsonNode json() {
			return TestHttp.json(data);
		}
	}

}
