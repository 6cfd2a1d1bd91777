package dev.junction.gateway.rpc;

import java.util.List;

import dev.junction.gateway.chat.ChatRequest;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatPipeline;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.requestid.RequestId;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ai.generateText}: builds an OpenAI chat completion request and sends it through the
 * same pipeline as {@code /v1/chat/completions}, so routing, fallbacks, limits and metrics apply.
 */
public final class AiProcedures {

	private final ChatPipeline pipeline;

	private final ObjectMapper mapper;

	private final RpcProperties properties;

	public AiProcedures(ChatPipeline pipeline, ObjectMapper mapper, RpcProperties properties) {
		this.pipeline = pipeline;
		this.mapper = mapper;
		this.properties = properties;
	}

	public List<Procedure> procedures() {
		return List.of(new Procedure("ai.generateText", "Generates text for a prompt with the gateway's providers.",
				Procedure.Type.MUTATION, false,
				List.of(Param.required("content", "string", "The user's message"),
						Param.optional("systemPrompt", "string",
								"A preset name ('default' or a configured one) or the system prompt itself"),
						Param.optional("model", "string",
								"provider/model or an alias (default " + this.properties.defaultModel() + ")"),
						Param.optional("maxTokens", "integer", "Most tokens to generate"),
						Param.optional("temperature", "number", "Sampling temperature, 0 to 2")),
				Schemas.object("text", "string", "model", "string", "usage", "object", "finishReason", "string"),
				this::generate));
	}

	private Mono<JsonNode> generate(Arguments arguments, RpcCall call) {
		ObjectNode body = this.mapper.createObjectNode();
		String model = arguments.string("model", this.properties.defaultModel());
		body.put("model", model);
		ArrayNode messages = body.putArray("messages");
		String systemPrompt = arguments.string("systemPrompt", null);
		if (systemPrompt != null) {
			messages.addObject().put("role", "system").put("content", this.properties.systemPrompt(systemPrompt));
		}
		messages.addObject().put("role", "user").put("content", arguments.string("content"));
		if (arguments.has("maxTokens")) {
			long maxTokens = arguments.integer("maxTokens");
			if (maxTokens < 1 || maxTokens > Integer.MAX_VALUE) {
				return Mono.error(Arguments.invalid("'maxTokens' must be a positive integer", "maxTokens"));
			}
			body.put("max_tokens", (int) maxTokens);
		}
		if (arguments.has("temperature")) {
			double temperature = arguments.number("temperature");
			if (temperature < 0 || temperature > 2) {
				return Mono.error(Arguments.invalid("'temperature' must be between 0 and 2", "temperature"));
			}
			body.put("temperature", temperature);
		}
		ChatExchange exchange = new ChatExchange(ChatRequest.of(body), call.client(), call.entryPoint(),
				call.startNanos(), RequestId.of(call.exchange()));
		call.exchange().getAttributes().putIfAbsent(ChatExchange.ATTRIBUTE, exchange);
		return this.pipeline.complete(exchange).map((result) -> result(result, model));
	}

	private JsonNode result(ChatResult result, String requested) {
		JsonNode completion = this.mapper.readTree(result.body());
		JsonNode choice = completion.path("choices").path(0);
		ObjectNode answer = this.mapper.createObjectNode();
		answer.put("text", choice.path("message").path("content").asString(""));
		answer.put("model", (result.responseModel() != null) ? result.responseModel()
				: completion.path("model").asString(requested));
		ObjectNode usage = answer.putObject("usage");
		usage.put("promptTokens", result.usage().promptTokens());
		usage.put("completionTokens", result.usage().completionTokens());
		usage.put("totalTokens", result.usage().totalTokens());
		String finishReason = (result.finishReason() != null) ? result.finishReason()
				: choice.path("finish_reason").asString(null);
		answer.put("finishReason", finishReason);
		return answer;
	}

}
