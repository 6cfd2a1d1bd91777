package dev.junction.gateway.provider;

import java.util.function.Supplier;

import dev.junction.gateway.error.InvalidRequestException;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * An OpenAI chat completion request, kept as the client's JSON tree so that every field,
 * known or not, reaches an OpenAI-compatible upstream unchanged. Only what routing needs
 * is read. The tree is never changed once parsed: what is sent upstream differently
 * (another {@code model}, usage asked for on streams) is sent from a copy. A request that
 * arrived in another API carries the client's original too (see {@link NativeRequest});
 * one with no chat form (embeddings) can only be served by a provider that speaks its
 * API, or answered by the gateway in its stead where it can stand in (a token count's
 * estimate).
 */
public final class ChatRequest {

	private final ObjectNode body;

	private final String model;

	private final boolean stream;

	private final boolean includeUsage;

	private final @Nullable NativeRequest original;

	private final boolean chatForm;

	private final @Nullable InvalidRequestException noChatForm;

	private final @Nullable Supplier<ChatResult> standIn;

	private final byte @Nullable [] json;

	private ChatRequest(ObjectNode body, String model, boolean stream, boolean includeUsage,
			@Nullable NativeRequest original, boolean chatForm) {
		this(body, model, stream, includeUsage, original, chatForm, null, null, null);
	}

	private ChatRequest(ObjectNode body, String model, boolean stream, boolean includeUsage,
			@Nullable NativeRequest original, boolean chatForm, @Nullable InvalidRequestException noChatForm,
			@Nullable Supplier<ChatResult> standIn, byte @Nullable [] json) {
		this.json = json;
		this.noChatForm = noChatForm;
		this.standIn = standIn;
		this.body = body;
		this.model = model;
		this.stream = stream;
		this.includeUsage = includeUsage;
		this.original = original;
		this.chatForm = chatForm;
	}

	/**
	 * A request that no chat completion can stand for: only a provider that speaks its
	 * API can serve it. Its token limit, for rate limits, is the API's own
	 * ({@code max_tokens}, or {@code max_output_tokens} for Responses).
	 * @param model the requested model, as routing reads it
	 * @param stream whether the client asked for a stream
	 * @param original the client's request
	 * @param why what to tell a client whose request reaches another provider, or null
	 * for the default
	 */
	public static ChatRequest nativeOnly(String model, boolean stream, NativeRequest original,
			@Nullable InvalidRequestException why) {
		ObjectNode body = original.body().objectNode();
		body.put("model", model);
		JsonNode maxTokens = original.body()
			.get((original.api() == ClientApi.RESPONSES) ? "max_output_tokens" : "max_tokens");
		if (maxTokens != null && maxTokens.canConvertToInt()) {
			body.put("max_tokens", maxTokens.asInt());
		}
		return new ChatRequest(body, model, stream, false, original, false, why, null, null);
	}

	/**
	 * A request without a chat form that the gateway answers itself ({@code standIn})
	 * when its provider does not speak its API, after every stage before the provider's
	 * call.
	 */
	public static ChatRequest standingIn(String model, NativeRequest original, Supplier<ChatResult> standIn) {
		ChatRequest request = nativeOnly(model, false, original, null);
		return new ChatRequest(request.body, model, false, false, original, false, null, standIn, null);
	}

	/**
	 * The chat completion that stands for a request sent in another API, or, when
	 * {@code translation} finds it cannot be said in one, a request only a provider that
	 * speaks that API serves (others refuse it with the translation's reason).
	 */
	public static ChatRequest translated(Supplier<ObjectNode> translation, NativeRequest original) {
		try {
			return of(translation.get()).standingFor(original);
		}
		catch (InvalidRequestException ex) {
			return nativeOnly(original.body().path("model").stringValue(),
					original.body().path("stream").asBoolean(false), original, ex);
		}
	}

	/** This chat request standing for a request the client sent in another API. */
	public ChatRequest standingFor(NativeRequest original) {
		return new ChatRequest(this.body, this.model, this.stream, this.includeUsage, original, this.chatForm);
	}

	/**
	 * The client's request in the API it was sent in, when that is not Chat Completions.
	 */
	public @Nullable NativeRequest original() {
		return this.original;
	}

	/**
	 * Whether a chat completion can stand for the request (false for embeddings and token
	 * counts).
	 */
	public boolean hasChatForm() {
		return this.chatForm;
	}

	/**
	 * Why no chat completion can stand for the request, when that is more than its API.
	 */
	public @Nullable InvalidRequestException noChatForm() {
		return this.noChatForm;
	}

	/**
	 * The gateway's own answer for a provider that does not speak the request's API, if
	 * it has one.
	 */
	public @Nullable Supplier<ChatResult> standIn() {
		return this.standIn;
	}

	/** The API the client called. */
	public ClientApi api() {
		return (this.original != null) ? this.original.api() : ClientApi.CHAT_COMPLETIONS;
	}

	/**
	 * Parses and validates a request body, keeping the client's bytes (see
	 * {@link #json()}).
	 */
	public static ChatRequest parse(byte[] json, ObjectMapper mapper) {
		JsonNode tree;
		try {
			tree = mapper.readTree(json);
		}
		catch (JacksonException ex) {
			throw InvalidRequestException.malformedJson(ex);
		}
		if (tree == null || !tree.isObject()) {
			throw InvalidRequestException.malformedJson("expected a JSON object");
		}
		ChatRequest request = of((ObjectNode) tree);
		return new ChatRequest(request.body, request.model, request.stream, request.includeUsage, null, true, null,
				null, json);
	}

	/** Validates a request already in tree form. */
	public static ChatRequest of(ObjectNode body) {
		JsonNode model = body.get("model");
		if (model == null || model.isNull()) {
			throw InvalidRequestException.missingField("model");
		}
		if (!model.isString() || model.stringValue().isBlank()) {
			throw InvalidRequestException.invalidField("model", "'model' must be a non-empty string.");
		}
		JsonNode messages = body.get("messages");
		if (messages == null || messages.isNull()) {
			throw InvalidRequestException.missingField("messages");
		}
		if (!messages.isArray() || messages.isEmpty()) {
			throw InvalidRequestException.invalidField("messages", "'messages' must be a non-empty array.");
		}
		for (int i = 0; i < messages.size(); i++) {
			JsonNode message = messages.get(i);
			JsonNode role = message.get("role");
			if (!message.isObject() || role == null || !role.isString()) {
				throw InvalidRequestException.invalidField("messages[" + i + "].role",
						"Each message must be an object with a string 'role'.");
			}
		}
		JsonNode stream = body.get("stream");
		if (stream != null && !stream.isNull() && !stream.isBoolean()) {
			throw InvalidRequestException.invalidField("stream", "'stream' must be a boolean.");
		}
		for (String limit : new String[] { "max_tokens", "max_completion_tokens" }) {
			JsonNode maxTokens = body.get(limit);
			if (maxTokens != null && !maxTokens.isNull()
					&& (!maxTokens.isIntegralNumber() || !maxTokens.canConvertToInt() || maxTokens.asInt() < 1)) {
				throw InvalidRequestException.invalidField(limit, "'" + limit + "' must be a positive integer.");
			}
		}
		boolean streaming = stream != null && stream.asBoolean(false);
		JsonNode options = body.get("stream_options");
		boolean includeUsage = options != null && options.path("include_usage").asBoolean(false);
		return new ChatRequest(body, model.stringValue(), streaming, includeUsage, null, true);
	}

	/** The {@code model} the client asked for: {@code provider/model} or an alias. */
	public String model() {
		return this.model;
	}

	public boolean stream() {
		return this.stream;
	}

	/** Whether the client asked for a final usage chunk on a stream. */
	public boolean includeUsage() {
		return this.includeUsage;
	}

	/** {@code max_tokens} (or {@code max_completion_tokens}), if the client set one. */
	public @Nullable Integer maxTokens() {
		JsonNode value = this.body.get("max_tokens");
		if (value == null || value.isNull()) {
			value = this.body.get("max_completion_tokens");
		}
		return (value != null && value.canConvertToInt()) ? value.asInt() : null;
	}

	/** The request without one field, the client's own left as it is. */
	public ChatRequest without(String field) {
		ObjectNode copy = this.body.objectNode();
		copy.setAll(this.body);
		copy.remove(field);
		return new ChatRequest(copy, this.model, this.stream, this.includeUsage, this.original, this.chatForm,
				this.noChatForm, this.standIn, null);
	}

	/**
	 * The bytes the client sent, when this request is exactly them (parsed from them, not
	 * changed since, in the Chat Completions API); else null.
	 */
	public byte @Nullable [] json() {
		return this.json;
	}

	/** The client's JSON, to read and never to change. */
	public ObjectNode body() {
		return this.body;
	}

}
