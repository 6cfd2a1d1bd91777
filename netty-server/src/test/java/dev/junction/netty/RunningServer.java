package dev.junction.netty;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A test class's own server: an application on a random port, started before the class's
 * first test and closed after its last.
 */
final class RunningServer implements BeforeAllCallback, AfterAllCallback {

	private final Class<?> application;

	private ConfigurableApplicationContext context;

	RunningServer(Class<?> application) {
		this.application = application;
	}

	@Override
	public void beforeAll(ExtensionContext extension) {
		this.context = new SpringApplicationBuilder(this.application).run("--server.port=0",
				"--spring.main.banner-mode=off");
	}

	@Override
	public void afterAll(ExtensionContext extension) {
		if (this.context != null) {
			this.context.close();
		}
	}

	int port() {
		return this.context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
	}

}
