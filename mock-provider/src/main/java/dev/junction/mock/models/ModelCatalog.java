package dev.junction.mock.models;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.junction.mock.pipeline.JsonText;
import dev.junction.mock.pipeline.MockCall;
import dev.junction.mock.pipeline.MockError;
import dev.junction.mock.pipeline.Responder;
import reactor.core.publisher.Mono;

import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * The configured models, listed in OpenAI's shape, or in Anthropic's when the request
 * carries {@code anthropic-version}. Every body is serialised once, at start.
 */
public final class ModelCatalog {

	/** The header by which Anthropic's SDKs announce themselves. */
	public static final String ANTHROPIC_VERSION = "anthropic-version";

	private static final long CREATED = 1_700_000_000L;

	private static final String CREATED_AT = "2023-11-14T22:13:20Z";

	private final byte[] openAiList;

	private final byte[] anthropicList;

	private final Map<String, byte[]> openAiModels = new LinkedHashMap<>();

	private final Map<String, byte[]> anthropicModels = new LinkedHashMap<>();

	public ModelCatalog(List<String> models) {
		StringBuilder openAi = new StringBuilder("{\"object\":\"list\",\"data\":[");
		StringBuilder anthropic = new StringBuilder("{\"data\":[");
		for (String model : models) {
			String openAiModel = "{\"id\":" + JsonText.quote(model) + ",\"object\":\"model\",\"created\":" + CREATED
					+ ",\"owned_by\":\"mock-provider\"}";
			String anthropicModel = "{\"type\":\"model\",\"id\":" + JsonText.quote(model) + ",\"display_name\":"
					+ JsonText.quote(model) + ",\"created_at\":\"" + CREATED_AT + "\"}";
			openAiModels.put(model, utf8(openAiModel));
			anthropicModels.put(model, utf8(anthropicModel));
			openAi.append((openAi.charAt(openAi.length() - 1) == '[') ? "" : ",").append(openAiModel);
			anthropic.append((anthropic.charAt(anthropic.length() - 1) == '[') ? "" : ",").append(anthropicModel);
		}
		this.openAiList = utf8(openAi.append("]}").toString());
		String first = models.isEmpty() ? null : models.get(0);
		String last = models.isEmpty() ? null : models.get(models.size() - 1);
		this.anthropicList = utf8(anthropic.append("],\"has_more\":false,\"first_id\":")
			.append(JsonText.quote(first))
			.append(",\"last_id\":")
			.append(JsonText.quote(last))
			.append('}')
			.toString());
	}

	/** Answers {@code GET /v1/models}. */
	public Responder list() {
		return (call, body) -> call.json(anthropic(call.request()) ? anthropicList : openAiList);
	}

	/**
	 * Answers {@code GET /v1/models/{id}}: the model, or 404 when it is not configured.
	 */
	public Responder one() {
		return this::one;
	}

	private Mono<ServerResponse> one(MockCall call, byte[] body) {
		String id = call.request().pathVariable("id");
		byte[] model = (anthropic(call.request()) ? anthropicModels : openAiModels).get(id);
		if (model == null) {
			throw new MockError(404, "The model '" + id + "' does not exist", "model", "model_not_found");
		}
		return call.json(model);
	}

	/** Whether a request comes from an Anthropic client. */
	public static boolean anthropic(ServerRequest request) {
		return request.headers().firstHeader(ANTHROPIC_VERSION) != null;
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
