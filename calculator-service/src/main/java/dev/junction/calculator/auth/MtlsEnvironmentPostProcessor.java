package dev.junction.calculator.auth;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.StringUtils;

/**
 * Turns {@code junction.calculator.auth.mode=mtls} into the gRPC server's own TLS
 * settings: a PEM SSL bundle made of the configured certificates and
 * {@code client-auth=require}, so that the handshake itself refuses a client without a
 * certificate from the trusted CA.
 */
public class MtlsEnvironmentPostProcessor implements EnvironmentPostProcessor {

	static final String BUNDLE = "junction-calculator-mtls";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		AuthProperties auth = Binder.get(environment).bind(AuthProperties.PREFIX, AuthProperties.class).orElse(null);
		if (auth == null || auth.mode() != AuthProperties.Mode.MTLS) {
			return;
		}
		String bundle = "spring.ssl.bundle.pem." + BUNDLE;
		Map<String, Object> settings = new LinkedHashMap<>();
		settings.put(bundle + ".keystore.certificate", require("certificate", auth.mtls().certificate()));
		settings.put(bundle + ".keystore.private-key", require("private-key", auth.mtls().privateKey()));
		settings.put(bundle + ".truststore.certificate", require("trusted-ca", auth.mtls().trustedCa()));
		settings.put("spring.grpc.server.ssl.bundle", BUNDLE);
		settings.put("spring.grpc.server.ssl.client-auth", "require");
		environment.getPropertySources().addFirst(new MapPropertySource("junctionCalculatorMtls", settings));
	}

	private static String require(String name, String value) {
		if (!StringUtils.hasText(value)) {
			throw new IllegalStateException(AuthProperties.PREFIX + ".mtls." + name + " must be set in mtls mode");
		}
		return value;
	}

}
