package dev.junction.gateway.calculator;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

import dev.junction.netty.RenamedProperties;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Makes {@link CalculatorProperties} the defaults of Spring gRPC's channel
 * {@value CalculatorProperties#CHANNEL}: its target and, with TLS, a PEM SSL bundle of
 * the configured files. {@code spring.grpc.client.channel.calculator.*} and
 * {@code spring.ssl.bundle.*} set explicitly win.
 */
class CalculatorChannelEnvironment implements EnvironmentPostProcessor, Ordered {

	/**
	 * The SSL bundle made of {@code tls.ca}, {@code tls.certificate} and
	 * {@code tls.private-key}.
	 */
	static final String BUNDLE = "junction-gateway-calculator";

	private static final String CHANNEL = "spring.grpc.client.channel." + CalculatorProperties.CHANNEL + ".";

	private static final String PEM = "spring.ssl.bundle.pem." + BUNDLE + ".";

	private static final String SOURCE = "calculatorChannelDefaults";

	private static final String STATIC = "static://";

	/**
	 * A resource location ({@code file:}, {@code classpath:}, ...) rather than a plain
	 * path.
	 */
	private static final Pattern LOCATION = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]+:.*");

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		CalculatorProperties properties = Binder.get(environment)
			.bindOrCreate(CalculatorProperties.PREFIX, CalculatorProperties.class);
		checkStatic(properties.address());
		Map<String, Object> defaults = new LinkedHashMap<>();
		defaults.put(CHANNEL + "target", properties.address());
		CalculatorProperties.Tls tls = properties.tls();
		if (tls.enabled()) {
			defaults.put(CHANNEL + "ssl.enabled", "true");
			boolean clientCertificate = tls.certificate() != null || tls.privateKey() != null;
			if (clientCertificate && (tls.certificate() == null || tls.privateKey() == null)) {
				throw new IllegalStateException(
						CalculatorProperties.PREFIX + ".tls.certificate and .tls.private-key must be set together");
			}
			if (tls.ca() != null || clientCertificate) {
				defaults.put(CHANNEL + "ssl.bundle", BUNDLE);
				putLocation(defaults, PEM + "truststore.certificate", tls.ca());
				putLocation(defaults, PEM + "keystore.certificate", tls.certificate());
				putLocation(defaults, PEM + "keystore.private-key", tls.privateKey());
			}
		}
		environment.getPropertySources().addLast(new MapPropertySource(SOURCE, defaults));
	}

	/**
	 * Spring gRPC reads {@code static://host:port} as {@code host:port}: both must be
	 * there.
	 */
	private static void checkStatic(String address) {
		if (address.startsWith(STATIC)) {
			URI uri = parse("tcp://" + address.substring(STATIC.length()));
			if (uri == null || uri.getHost() == null || uri.getPort() < 0) {
				throw new IllegalStateException(
						CalculatorProperties.PREFIX + ".address must be static://host:port, not '" + address + "'");
			}
		}
	}

	private static @Nullable URI parse(String uri) {
		try {
			return new URI(uri);
		}
		catch (URISyntaxException ex) {
			return null;
		}
	}

	private static void putLocation(Map<String, Object> defaults, String name, @Nullable String path) {
		if (path != null) {
			defaults.put(name,
					(LOCATION.matcher(path).matches() || path.contains("-----BEGIN")) ? path : "file:" + path);
		}
	}

	@Override
	public int getOrder() {
		return RenamedProperties.ORDER + 1;
	}

}
