package dev.junction.gateway.support;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

import com.anthropic.client.AnthropicClient;
import com.openai.client.OpenAIClient;
import dev.junction.mock.MockProviderServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A provider emulator and a {@link GatewayFixture gateway} whose providers point at it,
 * for the tests of a class: started before the first, closed after the last. Declared as
 * a static {@code @RegisterExtension} field, with the gateway's properties.
 */
public final class EmulatedGateway implements BeforeAllCallback, AfterAllCallback {

	private final Map<String, ?> emulatorProperties;

	private final List<BiConsumer<GatewayFixture.Builder, MockProviderServer>> steps = new ArrayList<>();

	private final Map<String, OpenAIClient> openAiClients = new HashMap<>();

	private final Map<String, AnthropicClient> anthropicClients = new HashMap<>();

	private MockProviderServer emulator;

	private GatewayFixture gateway;

	private EmulatedGateway(Map<String, ?> emulatorProperties) {
		this.emulatorProperties = emulatorProperties;
	}

	/** A gateway in front of an emulator with these properties. */
	public static EmulatedGateway emulator(Map<String, ?> emulatorProperties) {
		return new EmulatedGateway(emulatorProperties);
	}

	/** Accepts {@code key} as a caller's key. */
	public EmulatedGateway key(String key) {
		return properties("junction.gateway.auth.keys[0]=" + key);
	}

	public EmulatedGateway properties(String... properties) {
		return step((builder, emulator) -> builder.properties(properties));
	}

	/** The in-process mock provider, named {@code mock}. */
	public EmulatedGateway mock() {
		return step((builder, emulator) -> builder.mock());
	}

	/** An OpenAI-compatible provider at the emulator's {@code /v1}. */
	public EmulatedGateway openAi(String name, String key) {
		return step((builder, emulator) -> builder.openAi(name, emulator, key));
	}

	/** An Anthropic provider at the emulator. */
	public EmulatedGateway anthropic(String name, String key) {
		return step((builder, emulator) -> builder.anthropic(name, emulator, key));
	}

	/** An OpenAI-compatible provider elsewhere. */
	public EmulatedGateway openAi(String name, String baseUrl, String key) {
		return step((builder, emulator) -> builder.openAi(name, baseUrl, key));
	}

	private EmulatedGateway step(BiConsumer<GatewayFixture.Builder, MockProviderServer> step) {
		this.steps.add(step);
		return this;
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		this.emulator = MockProviderServer.start(this.emulatorProperties);
		GatewayFixture.Builder builder = GatewayFixture.with();
		builder.owned(this.emulator);
		this.steps.forEach((step) -> step.accept(builder, this.emulator));
		this.gateway = builder.start();
	}

	@Override
	public void afterAll(ExtensionContext context) {
		if (this.gateway != null) {
			this.gateway.close();
			this.gateway = null;
			this.openAiClients.clear();
			this.anthropicClients.clear();
		}
	}

	public MockProviderServer emulator() {
		return this.emulator;
	}

	public String baseUrl() {
		return this.gateway.baseUrl();
	}

	/** The OpenAI Java SDK pointed at the gateway with {@code apiKey}, one per key. */
	public OpenAIClient openAiClient(String apiKey) {
		return this.openAiClients.computeIfAbsent(apiKey, this.gateway::openAiClient);
	}

	/** The Anthropic Java SDK pointed at the gateway with {@code apiKey}, one per key. */
	public AnthropicClient anthropicClient(String apiKey) {
		return this.anthropicClients.computeIfAbsent(apiKey, this.gateway::anthropicClient);
	}

	/** A JSON {@code POST} of {@code body} to {@code path} with a bearer {@code key}. */
	public HttpResponse<String> post(String path, String key, String body) {
		return this.gateway.post(path, key, body);
	}

}
