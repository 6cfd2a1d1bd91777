package dev.junction.gateway.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import dev.junction.gateway.GatewayApplication;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The real gateway on a random port (unless {@code server.port} is given), configured as
 * on the command line.
 */
public final class RunningGateway implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private RunningGateway(ConfigurableApplicationContext context) {
		this.context = context;
	}

	public static RunningGateway start(List<String> properties) {
		return start(properties, new Class<?>[0]);
	}

	/**
	 * The gateway with beans of its own from {@code sources}, as an application that
	 * embeds it adds them.
	 */
	public static RunningGateway start(List<String> properties, Class<?>... sources) {
		List<String> args = new ArrayList<>();
		if (properties.stream().noneMatch((property) -> property.startsWith("server.port="))) {
			args.add("--server.port=0");
		}
		properties.forEach((property) -> args.add("--" + property));
		return new RunningGateway(new SpringApplicationBuilder(GatewayApplication.class).sources(sources)
			.run(args.toArray(String[]::new)));
	}

	public int port() {
		return this.context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
	}

	public String baseUrl() {
		return "http://127.0.0.1:" + port();
	}

	/**
	 * The OpenAI Java SDK pointed at this gateway's {@code /v1} with {@code apiKey},
	 * without retries.
	 */
	public OpenAIClient openAiClient(String apiKey) {
		return OpenAIOkHttpClient.builder()
			.baseUrl(baseUrl() + "/v1")
			.apiKey(apiKey)
			.maxRetries(0)
			.timeout(Duration.ofSeconds(20))
			.build();
	}

	/**
	 * The Anthropic Java SDK pointed at this gateway with {@code apiKey}, without
	 * retries.
	 */
	public AnthropicClient anthropicClient(String apiKey) {
		return AnthropicOkHttpClient.builder()
			.baseUrl(baseUrl())
			.apiKey(apiKey)
			.maxRetries(0)
			.timeout(Duration.ofSeconds(20))
			.build();
	}

	public ConfigurableApplicationContext context() {
		return this.context;
	}

	@Override
	public void close() {
		Http.forget(port());
		this.context.close();
	}

}
