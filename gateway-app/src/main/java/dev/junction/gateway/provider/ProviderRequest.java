package dev.junction.gateway.provider;

import dev.junction.gateway.tracing.TraceHeaders;
import org.jspecify.annotations.Nullable;

/**
 * One call to one provider.
 *
 * @param chat the client's request
 * @param model the model name the provider knows (the part after {@code provider/})
 * @param apiKey the upstream key chosen for this call, if the provider uses keys
 * @param requestId the id of the client's request, passed upstream where the provider
 * allows
 * @param api the API the call is made in: Chat Completions ({@code chat.body()}), or the
 * API of the client's original request ({@code chat.original()}) when the provider speaks
 * it
 * @param callerKey whether {@code apiKey} is the caller's own key rather than one of the
 * provider's
 * @param trace the trace context headers to send upstream with the request id
 */
public record ProviderRequest(ChatRequest chat, String model, @Nullable String apiKey, String requestId, ClientApi api,
		boolean callerKey, TraceHeaders trace) {

	/** A call outside any trace. */
	public ProviderRequest(ChatRequest chat, String model, @Nullable String apiKey, String requestId, ClientApi api,
			boolean callerKey) {
		this(chat, model, apiKey, requestId, api, callerKey, TraceHeaders.NONE);
	}

	/** A call with one of the provider's own keys. */
	public ProviderRequest(ChatRequest chat, String model, @Nullable String apiKey, String requestId, ClientApi api) {
		this(chat, model, apiKey, requestId, api, false);
	}

	/** A Chat Completions call. */
	public ProviderRequest(ChatRequest chat, String model, @Nullable String apiKey, String requestId) {
		this(chat, model, apiKey, requestId, ClientApi.CHAT_COMPLETIONS, false);
	}

	/** The client's original request, for a call made in its own API. */
	public NativeRequest original() {
		NativeRequest original = this.chat.original();
		if (original == null || original.api() != this.api) {
			throw new IllegalStateException("a " + this.api + " call needs the client's request in that API");
		}
		return original;
	}

}
