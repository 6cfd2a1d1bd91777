package dev.junction.gateway.provider;

import org.jspecify.annotations.Nullable;

/**
 * One call to one provider.
 *
 * @param chat the client's request
 * @param model the model name the provider knows (the part after {@code provider/})
 * @param apiKey the upstream key chosen for this call, if the provider uses keys
 * @param requestId the id of the client's request, passed upstream where the provider allows
 */
public record ProviderRequest(ChatRequest chat, String model, @Nullable String apiKey, String requestId) {
}
