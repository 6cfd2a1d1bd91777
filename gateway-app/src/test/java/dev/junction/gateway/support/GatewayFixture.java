package dev.junction.gateway.support;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import com.anthropic.client.AnthropicClient;
import com.openai.client.OpenAIClient;
import dev.junction.mock.MockProviderServer;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * The real gateway started with named providers, most of them provider emulators, which
 * it closes with itself.
 */
public final class GatewayFixture implements AutoCloseable {

	private final RunningGateway gateway;

	private final List<MockProviderServer> emulators;

	private GatewayFixture(RunningGateway gateway, List<MockProviderServer> emulators) {
		this.gateway = gateway;
		this.emulators = emulators;
	}

	/** A gateway that accepts {@code key} as a caller's key. */
	public static Builder withKey(String key) {
		return new Builder().properties("junction.gateway.auth.keys[0]=" + key);
	}

	/** A gateway with these properties, as on the command line. */
	public static Builder with(String... properties) {
		return new Builder().properties(properties);
	}

	public RunningGateway gateway() {
		return this.gateway;
	}

	public String baseUrl() {
		return this.gateway.baseUrl();
	}

	public ConfigurableApplicationContext context() {
		return this.gateway.context();
	}

	public OpenAIClient openAiClient(String apiKey) {
		return this.gateway.openAiClient(apiKey);
	}

	public AnthropicClient anthropicClient(String apiKey) {
		return this.gateway.anthropicClient(apiKey);
	}

	/** A JSON {@code POST} of {@code body} to {@code path} with a bearer {@code key}. */
	public HttpResponse<String> post(String path, String key, String body) {
		return Http.post(baseUrl() + path, "Bearer " + key, body);
	}

	@Override
	public void close() {
		try {
			this.gateway.close();
		}
		finally {
			closeAll(this.emulators);
		}
	}

	private static void closeAll(List<MockProviderServer> emulators) {
		emulators.forEach(MockProviderServer::close);
	}

	/**
	 * The gateway's properties: a provider is declared by its type, base URL and one key;
	 * what else a test sets stays in its own properties.
	 */
	public static final class Builder {

		private final List<String> properties = new ArrayList<>();

		private final List<MockProviderServer> emulators = new ArrayList<>();

		private Builder() {
		}

		public Builder properties(String... properties) {
			this.properties.addAll(List.of(properties));
			return this;
		}

		/** The in-process mock provider, named {@code mock}. */
		public Builder mock() {
			return properties("junction.gateway.providers.mock.type=mock");
		}

		/** An OpenAI-compatible provider at the emulator's {@code /v1}. */
		public Builder openAi(String name, MockProviderServer emulator, String key) {
			return openAi(name, owned(emulator).openAiBaseUrl(), key);
		}

		public Builder openAi(String name, String baseUrl, String key) {
			return provider(name, "openai", baseUrl, key);
		}

		/** An Anthropic provider at the emulator. */
		public Builder anthropic(String name, MockProviderServer emulator, String key) {
			return anthropic(name, owned(emulator).baseUrl(), key);
		}

		public Builder anthropic(String name, String baseUrl, String key) {
			return provider(name, "anthropic", baseUrl, key);
		}

		public Builder provider(String name, String type, String baseUrl, String key) {
			String prefix = "junction.gateway.providers." + name;
			return properties(prefix + ".type=" + type, prefix + ".base-url=" + baseUrl,
					prefix + ".keys[0].value=" + key);
		}

		/**
		 * Starts the gateway, with beans of its own from {@code sources}. The emulators
		 * its providers point at are closed with it, or now if it does not start.
		 */
		public GatewayFixture start(Class<?>... sources) {
			try {
				return new GatewayFixture(RunningGateway.start(this.properties, sources), this.emulators);
			}
			catch (RuntimeException ex) {
				closeAll(this.emulators);
				throw ex;
			}
		}

		/** Closes {@code emulator} with the gateway. */
		MockProviderServer owned(MockProviderServer emulator) {
			if (!this.emulators.contains(emulator)) {
				this.emulators.add(emulator);
			}
			return emulator;
		}

	}

}
