package dev.junction.gateway.calculator;

import java.time.Duration;
import java.util.Map;

import dev.junction.gateway.config.RenamedGatewayProperties;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.logging.DeferredLogs;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * How the calculator's settings become Spring gRPC's channel settings, former names
 * included.
 */
class CalculatorEnvironmentTests {

	@Test
	void readsFormerNamesFromEnvironmentVariables() {
		StandardEnvironment environment = environment(Map.of());
		environment.getPropertySources()
			.addFirst(new SystemEnvironmentPropertySource("test-systemEnvironment",
					Map.of("JUNCTION_CALCULATOR_HEALTH_CACHE_TTL", "5s", "JUNCTION_CALCULATOR_ADDRESS",
							"static://calculator:50051")));
		process(environment);
		CalculatorProperties properties = bind(environment);
		assertThat(properties.healthCacheTtl()).isEqualTo(Duration.ofSeconds(5));
		assertThat(environment.getProperty("spring.grpc.client.channel.calculator.target"))
			.isEqualTo("static://calculator:50051");
	}

	@Test
	void leavesTheServersOwnSettingsAlone() {
		StandardEnvironment environment = environment(Map.of("junction.calculator.auth.mode", "jwt"));
		process(environment);
		assertThat(environment.getProperty("junction.gateway.calculator.auth.mode")).isNull();
	}

	@Test
	void makesAPemBundleOfTheTlsFiles() {
		StandardEnvironment environment = environment(Map.of("junction.gateway.calculator.tls.enabled", "true",
				"junction.gateway.calculator.tls.ca", "/certs/ca.pem", "junction.gateway.calculator.tls.certificate",
				"classpath:client.pem", "junction.gateway.calculator.tls.private-key", "/certs/client.key"));
		process(environment);
		String bundle = "spring.ssl.bundle.pem." + CalculatorChannelEnvironment.BUNDLE + ".";
		assertThat(environment.getProperty("spring.grpc.client.channel.calculator.ssl.enabled")).isEqualTo("true");
		assertThat(environment.getProperty("spring.grpc.client.channel.calculator.ssl.bundle"))
			.isEqualTo(CalculatorChannelEnvironment.BUNDLE);
		assertThat(environment.getProperty(bundle + "truststore.certificate")).isEqualTo("file:/certs/ca.pem");
		assertThat(environment.getProperty(bundle + "keystore.certificate")).isEqualTo("classpath:client.pem");
		assertThat(environment.getProperty(bundle + "keystore.private-key")).isEqualTo("file:/certs/client.key");
	}

	@Test
	void usesTheJdkTrustStoreForTlsWithoutFiles() {
		StandardEnvironment environment = environment(Map.of("junction.gateway.calculator.tls.enabled", "true"));
		process(environment);
		assertThat(environment.getProperty("spring.grpc.client.channel.calculator.ssl.enabled")).isEqualTo("true");
		assertThat(environment.getProperty("spring.grpc.client.channel.calculator.ssl.bundle")).isNull();
	}

	@Test
	void explicitSpringGrpcSettingsWin() {
		StandardEnvironment environment = environment(Map.of("junction.gateway.calculator.address", "static://a:1",
				"spring.grpc.client.channel.calculator.target", "static://b:2"));
		process(environment);
		assertThat(environment.getProperty("spring.grpc.client.channel.calculator.target")).isEqualTo("static://b:2");
	}

	@Test
	void refusesAClientCertificateWithoutItsKey() {
		StandardEnvironment environment = environment(Map.of("junction.gateway.calculator.tls.enabled", "true",
				"junction.gateway.calculator.tls.certificate", "/certs/client.pem"));
		assertThatIllegalStateException().isThrownBy(() -> process(environment))
			.withMessage("junction.gateway.calculator.tls.certificate and .tls.private-key must be set together");
	}

	private static StandardEnvironment environment(Map<String, Object> properties) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
		ConfigurationPropertySources.attach(environment);
		return environment;
	}

	private static void process(StandardEnvironment environment) {
		new RenamedGatewayProperties(new DeferredLogs()).postProcessEnvironment(environment, null);
		new CalculatorChannelEnvironment().postProcessEnvironment(environment, null);
	}

	private static CalculatorProperties bind(StandardEnvironment environment) {
		return Binder.get(environment).bindOrCreate(CalculatorProperties.PREFIX, CalculatorProperties.class);
	}

}
