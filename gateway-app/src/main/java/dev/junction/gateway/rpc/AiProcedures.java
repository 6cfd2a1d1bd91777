package dev.junction.gateway.rpc;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.junction.gateway.error.UpstreamException;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatPipeline;
import dev.junction.gateway.provider.ChatProvider;
import dev.junction.gateway.provider.ChatRequest;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.ProviderRegistry;
import dev.junction.gateway.requestid.RequestId;
import dev.junction.gateway.routing.Target;
import dev.junction.openai.ChatCompletion;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ai.generateText}, which builds an OpenAI chat completion request and sends it
 * through the same pipeline as {@code /v1/chat/completions} (routing, fallbacks, limits,
 * metrics), and the {@code ai.*} procedures that describe the configured providers.
 */
public final class AiProcedures {

	private static final Set<String> DEFAULT_MODEL_NAMES = Set.of("default", "auto");

	private final ChatPipeline pipeline;

	private final ObjectMapper mapper;

	private final RpcProperties properties;

	private final ProviderRegistry providers;

	public AiProcedures(ChatPipeline pipeline, ObjectMapper mapper, RpcProperties properties,
			ProviderRegistry providers) {
		this.pipeline = pipeline;
		this.mapper = mapper;
		this.properties = properties;
		this.providers = providers;
	}

	public List<Procedure> procedures() {
		Param maxTokens = Param.optional("maxTokens", "integer", "Most tokens to generate")
			.between(1, Integer.MAX_VALUE);
		Param temperature = Param.optional("temperature", "number", "Sampling temperature, 0 to 2").between(0, 2);
		Param model = Param.optional("model", "string",
				"provider/model, an alias, or with 'provider' the model's own name " + "(default "
						+ this.properties.defaultModel() + ")");
		ObjectNode providerList = Schemas.object("providers", "array", "source", "string", "lastUpdated", "string");
		return List.of(new Procedure("ai.generateText", "Generates text for a prompt with the gateway's providers.",
				Procedure.Type.MUTATION, false, true,
				List.of(Param.required("content", "string", "The user's message"), Param.optional(
						"systemPrompt", "string",
						"A preset name ('default', 'code_review', ... or a configured one) or the system prompt itself"),
						model, maxTokens, temperature,
						Param.optional("provider", "string",
								"A configured provider; its first model unless 'model' names one"),
						Param.optional("apiKey", "string",
								"The caller's own key for the provider (see ai.listProvidersBYOK), used for this call "
										+ "instead of the gateway's; never logged, stored or echoed"),
						Param.optional("metadata", "object", "Free-form labels of the request"),
						Param.optional("options", "object", "model, maxTokens and temperature, as the top-level params")
							.with(model, maxTokens, temperature)),
				Schemas.object("success", "boolean", "data", "object", "text", "string", "model", "string", "usage",
						"object", "finishReason", "string"),
				this::generate),
				Procedure.of("ai.listProviders", "The configured providers, their type and models.",
						Procedure.Type.QUERY, List.of(), providerList,
						(arguments, call) -> Mono.just(providers(false))),
				Procedure.of("ai.listProvidersBYOK",
						"Providers that take the caller's own API key as ai.generateText's apiKey.",
						Procedure.Type.QUERY, List.of(), providerList, (arguments, call) -> Mono.just(providers(true))),
				Procedure.of("ai.listAllowedModels",
						"The models of one provider ({provider, models, count}) or of each ({name: models}).",
						Procedure.Type.QUERY, List.of(Param.optional("provider", "string", "A configured provider")),
						Schemas.type("object"), (arguments, call) -> Mono.just(allowedModels(arguments))),
				Procedure.of("ai.getRegistryHealth",
						"Whether any provider is configured, with provider and model counts.", Procedure.Type.QUERY,
						List.of(),
						Schemas.object("status", "string", "providers", "integer", "models", "integer", "checkedAt",
								"string", "version", "string"),
						(arguments, call) -> Mono.just(registryHealth())),
				Procedure.of("ai.validateProvider",
						"Checks that an API key has the format of the provider's keys, without sending it anywhere.",
						Procedure.Type.MUTATION,
						List.of(Param.required("provider", "string",
								"anthropic, openai, google, openrouter or a configured provider"),
								Param.required("apiKey", "string", "The key to check; never logged or stored")),
						Schemas.object("isValid", "boolean", "provider", "string", "message", "string"),
						(arguments, call) -> Mono
							.just(validate(arguments.string("provider"), arguments.string("apiKey")))));
	}

	private Mono<JsonNode> generate(Arguments arguments, RpcCall call) {
		Arguments options = arguments.nested("options");
		for (String name : List.of("model", "maxTokens", "temperature")) {
			if (arguments.has(name) && options.has(name)) {
				return Mono.error(Arguments.invalid("give '" + name + "' or 'options." + name + "', not both", name));
			}
		}
		String model = model(arguments.string("provider", null), first(arguments, options, "model"));
		ObjectNode body = this.mapper.createObjectNode();
		body.put("model", model);
		ArrayNode messages = body.putArray("messages");
		String systemPrompt = arguments.string("systemPrompt", null);
		if (systemPrompt != null) {
			messages.addObject().put("role", "system").put("content", this.properties.systemPrompt(systemPrompt));
		}
		messages.addObject().put("role", "user").put("content", arguments.string("content"));
		Arguments maxTokens = arguments.has("maxTokens") ? arguments : options;
		if (maxTokens.has("maxTokens")) {
			body.put("max_tokens", (int) maxTokens.integer("maxTokens"));
		}
		Arguments temperature = arguments.has("temperature") ? arguments : options;
		if (temperature.has("temperature")) {
			body.put("temperature", temperature.number("temperature"));
		}
		ChatExchange exchange = new ChatExchange(ChatRequest.of(body), call.client(), call.entryPoint(),
				call.startNanos(), RequestId.of(call.exchange()), false, false, callerKey(arguments));
		call.exchange().getAttributes().putIfAbsent(ChatExchange.ATTRIBUTE, exchange);
		return this.pipeline.complete(exchange)
			.doOnSuccess((result) -> call.ended(exchange))
			.doOnError((error) -> call.ended(exchange))
			.map((result) -> result(result, model, exchange));
	}

	/**
	 * The caller's own provider key, when the call brings one and this gateway takes it.
	 */
	private @Nullable String callerKey(Arguments arguments) {
		String key = arguments.string("apiKey", null);
		if (key == null) {
			return null;
		}
		if (!this.properties.byok()) {
			throw Arguments.invalid("this gateway calls providers with its own keys and takes none from callers: "
					+ "leave out 'apiKey'", "apiKey");
		}
		if (key.isBlank() || key.length() > 1024 || key.chars().anyMatch((c) -> c < 0x21 || c > 0x7e)) {
			throw Arguments.invalid(
					"'apiKey' must be a provider API key: 1 to 1024 printable characters without spaces", "apiKey");
		}
		return key;
	}

	private static @Nullable String first(Arguments arguments, Arguments options, String name) {
		return arguments.string(name, options.string(name, null));
	}

	/**
	 * The model to request: the default, the one named, or a provider's own (its first
	 * unless named).
	 */
	private String model(@Nullable String provider, @Nullable String model) {
		boolean unnamed = model == null || DEFAULT_MODEL_NAMES.contains(model);
		if (provider == null) {
			return unnamed ? this.properties.defaultModel() : model;
		}
		if (!this.providers.names().contains(provider)) {
			throw Arguments.invalid("provider '" + provider + "' is not configured here; configured: "
					+ String.join(", ", this.providers.names()), "provider");
		}
		if (unnamed) {
			List<String> models = this.providers.get(provider).provider().models();
			if (models.isEmpty()) {
				throw Arguments.invalid("provider '" + provider + "' lists no models: name one with 'model'", "model");
			}
			return provider + "/" + models.get(0);
		}
		return model.startsWith(provider + "/") ? model : provider + "/" + model;
	}

	private JsonNode result(ChatResult result, String requested, ChatExchange exchange) {
		Target target = exchange.target();
		ChatCompletion completion;
		try {
			completion = result.chatCompletion(this.mapper);
		}
		catch (JacksonException ex) {
			throw UpstreamException.invalidResponse((target != null) ? target.provider() : "upstream",
					"the response is not a chat completion");
		}
		String text = (completion.text() != null) ? completion.text() : "";
		String model = (result.responseModel() != null) ? result.responseModel()
				: (completion.model() != null) ? completion.model() : requested;
		String finishReason = (result.finishReason() != null) ? result.finishReason() : completion.finishReason();
		ObjectNode usage = this.mapper.createObjectNode()
			.put("promptTokens", result.usage().promptTokens())
			.put("completionTokens", result.usage().completionTokens())
			.put("totalTokens", result.usage().totalTokens());
		ObjectNode answer = this.mapper.createObjectNode().put("success", true);
		answer.putObject("data")
			.put("content", text)
			.<ObjectNode>set("usage", usage.deepCopy())
			.put("model", model)
			.put("provider",
					(target != null) ? target.provider() : requested.substring(0, Math.max(0, requested.indexOf('/'))))
			.put("requestId", exchange.requestId())
			.put("finishReason", finishReason);
		answer.put("text", text);
		answer.put("model", model);
		answer.set("usage", usage);
		answer.put("finishReason", finishReason);
		return answer;
	}

	/** Every provider, or those that take the caller's own key. */
	private JsonNode providers(boolean callerKeys) {
		ArrayNode list = this.mapper.createArrayNode();
		for (ProviderRegistry.Entry entry : this.providers.all()) {
			ChatProvider provider = entry.provider();
			if (callerKeys && !(this.properties.byok() && provider.takesCallerKeys())) {
				continue;
			}
			ObjectNode item = list.addObject()
				.put("name", provider.name())
				.put("type", provider.type().name().toLowerCase(Locale.ROOT));
			provider.models().forEach(item.putArray("models")::add);
		}
		return providerList(list);
	}

	private JsonNode providerList(ArrayNode providers) {
		ObjectNode result = this.mapper.createObjectNode();
		result.set("providers", providers);
		result.put("source", "configuration");
		result.put("lastUpdated", Instant.now().toString());
		return result;
	}

	private JsonNode allowedModels(Arguments arguments) {
		ObjectNode result = this.mapper.createObjectNode();
		if (arguments.has("provider")) {
			String name = arguments.string("provider");
			if (!this.providers.names().contains(name)) {
				throw Arguments.invalid("provider '" + name + "' is not configured here; configured: "
						+ String.join(", ", this.providers.names()), "provider");
			}
			List<String> models = this.providers.get(name).provider().models();
			result.put("provider", name);
			models.forEach(result.putArray("models")::add);
			result.put("count", models.size());
			return result;
		}
		for (ProviderRegistry.Entry entry : this.providers.all()) {
			entry.provider().models().forEach(result.putArray(entry.provider().name())::add);
		}
		return result;
	}

	private JsonNode registryHealth() {
		int models = 0;
		for (ProviderRegistry.Entry entry : this.providers.all()) {
			models += entry.provider().models().size();
		}
		return this.mapper.createObjectNode()
			.put("status", this.providers.names().isEmpty() ? "error" : "healthy")
			.put("providers", this.providers.names().size())
			.put("models", models)
			.put("checkedAt", Instant.now().toString())
			.put("version", SystemProcedures.VERSION);
	}

	private JsonNode validate(String provider, String apiKey) {
		String vendor = vendor(provider);
		KeyFormat format = KeyFormat.of(vendor);
		boolean valid = format.matches(apiKey.strip());
		return this.mapper.createObjectNode()
			.put("isValid", valid)
			.put("provider", provider)
			.put("message", valid ? "API key format appears valid for " + vendor
					: "API key format invalid for " + vendor + ": expected " + format.description());
	}

	/**
	 * The vendor whose key format applies: the name itself, or a configured provider's
	 * type.
	 */
	private String vendor(String provider) {
		if (!this.providers.names().contains(provider)) {
			return provider.toLowerCase(Locale.ROOT);
		}
		return this.providers.get(provider).provider().type().name().toLowerCase(Locale.ROOT);
	}

	/** What a vendor's API keys look like. */
	private record KeyFormat(String prefix, int minLength, String description) {

		static KeyFormat of(String vendor) {
			return switch (vendor) {
				case "anthropic" -> new KeyFormat("sk-ant-", 20, "'sk-ant-' and at least 20 characters");
				case "openrouter" -> new KeyFormat("sk-or-", 20, "'sk-or-' and at least 20 characters");
				case "openai" -> new KeyFormat("sk-", 20, "'sk-' and at least 20 characters");
				case "google" -> new KeyFormat("AIza", 39, "'AIza' and 39 characters");
				default -> new KeyFormat("", 10, "at least 10 characters without spaces");
			};
		}

		boolean matches(String key) {
			return key.startsWith(this.prefix) && key.length() >= this.minLength
					&& key.chars().noneMatch(Character::isWhitespace);
		}

	}

}
