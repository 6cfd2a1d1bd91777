package dev.junction.gateway.warmup;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import tools.jackson.core.util.DefaultPrettyPrinter;
import tools.jackson.core.util.Separators;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The warm-up's requests, varied the way clients' requests vary: the JIT compiles the
 * request path for what it has seen, and a request unlike all of the warm-up's (a body
 * sent with a length instead of in chunks, JSON with spaces, a header it never had, a new
 * connection) makes the compiled code it reaches give way to slower code and be compiled
 * anew, while clients wait. So the warm-up's requests cover what clients commonly send:
 * <ul>
 * <li>bodies sent with {@code Content-Length}, as SDKs send them, and now and then in
 * chunks;</li>
 * <li>compact JSON (JavaScript's {@code JSON.stringify}) and JSON with spaces after
 * separators (Python's {@code json.dumps}), with and without a system message and a
 * temperature, now and then followed by a line end;</li>
 * <li>every fourth one streamed, half of those asking for usage;</li>
 * <li>different header sets ({@code Accept}, {@code Accept-Encoding},
 * {@code User-Agent});</li>
 * <li>now and then {@code Connection: close}, so that new connections are accepted;</li>
 * <li>runs of requests at four times the concurrency, so that connection pools grow as
 * they do under a burst.</li>
 * </ul>
 */
final class WarmUpRequests {

	/** Every how many requests one is streamed. */
	static final int STREAM_EVERY = 4;

	/** Of every how many requests two are sent in chunks, one of them streamed. */
	static final int CHUNKED_EVERY = 16;

	/** Every how many requests one closes its connection. */
	static final int CLOSE_EVERY = 64;

	/** How many requests a run has. */
	static final int RUN = 256;

	/** Every how many runs one goes at {@link #BURST} times the concurrency. */
	static final int BURST_EVERY = 8;

	/** How many times the concurrency a burst has. */
	static final int BURST = 4;

	private static final List<Map<String, String>> HEADERS = List.of(Map.of(),
			Map.of("Accept", "application/json", "Accept-Encoding", "gzip, deflate", "User-Agent", "junction-warm-up"),
			Map.of("Accept-Encoding", "gzip", "User-Agent", "junction-warm-up/1 (runtime; jvm)"),
			Map.of("Accept", "*/*", "Cache-Control", "no-transform"));

	/**
	 * As Python's {@code json.dumps} writes: one line, a space after each comma and
	 * colon.
	 */
	private static final DefaultPrettyPrinter SPACED = new DefaultPrettyPrinter().withObjectIndenter(null)
		.withArrayIndenter(null)
		.withSeparators(Separators.createDefaultInstance()
			.withObjectNameValueSpacing(Separators.Spacing.AFTER)
			.withObjectEntrySpacing(Separators.Spacing.AFTER)
			.withArrayElementSpacing(Separators.Spacing.AFTER));

	private final String model;

	private final ObjectMapper mapper;

	private final ObjectWriter compact;

	private final ObjectWriter spaced;

	WarmUpRequests(String model, ObjectMapper mapper) {
		this.model = model;
		this.mapper = mapper;
		this.compact = mapper.writer().without(SerializationFeature.INDENT_OUTPUT);
		this.spaced = mapper.writer().with(SPACED);
	}

	/** The {@code index}th request. */
	Request get(int index) {
		boolean stream = index % STREAM_EVERY == STREAM_EVERY - 1;
		boolean usage = stream && (index / STREAM_EVERY) % 2 == 0;
		boolean system = index % 5 >= 3;
		ObjectWriter writer = (index % 3 == 1) ? this.spaced : this.compact;
		// Now and then with the line end that a body written to a file and sent from it
		// has.
		String body = writer.writeValueAsString(body(stream, usage, system)) + ((index % 7 == 2) ? "\n" : "");
		int inSixteen = index % CHUNKED_EVERY;
		return new Request(body.getBytes(StandardCharsets.UTF_8), stream, inSixteen == 5 || inSixteen == 11,
				index % CLOSE_EVERY == 9, HEADERS.get(index % HEADERS.size()));
	}

	/** How many of the requests from {@code index} on go at once. */
	static int concurrency(int index, int concurrency) {
		return ((index / RUN) % BURST_EVERY == BURST_EVERY - 1) ? concurrency * BURST : concurrency;
	}

	private ObjectNode body(boolean stream, boolean usage, boolean system) {
		ObjectNode body = this.mapper.createObjectNode().put("model", this.model);
		ArrayNode messages = body.putArray("messages");
		if (system) {
			messages.addObject().put("role", "system").put("content", "Answer in one word.");
		}
		messages.addObject().put("role", "user").put("content", "Say hi.");
		body.put("max_tokens", 1);
		if (system) {
			body.put("temperature", 0.7);
		}
		if (stream) {
			body.put("stream", true);
			if (usage) {
				body.putObject("stream_options").put("include_usage", true);
			}
		}
		return body;
	}

	/**
	 * One request.
	 *
	 * @param body its JSON
	 * @param stream whether it asks for a stream
	 * @param chunked whether its body goes in chunks rather than with a length
	 * @param close whether it closes its connection
	 * @param headers the headers it has besides {@code Content-Type} and the key
	 */
	record Request(byte[] body, boolean stream, boolean chunked, boolean close, Map<String, String> headers) {
	}

}
