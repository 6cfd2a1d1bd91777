package dev.junction.gateway.vkey;

import java.nio.file.Path;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.LazyInitializationBeanFactoryPostProcessor;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Virtual keys (their database, service and admin API) are wired when an admin key or a
 * key database is configured; otherwise the admin API only says it is off. Beans are lazy
 * so that only the wiring is checked, not the database.
 */
class VirtualKeysConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withInitializer(
				(context) -> context.addBeanFactoryPostProcessor(new LazyInitializationBeanFactoryPostProcessor()))
		.withUserConfiguration(Infrastructure.class, VirtualKeysConfiguration.class, AdminOffConfiguration.class);

	@TempDir
	Path dir;

	@Test
	void withoutAnAdminKeyOrADatabaseOnlyTheAdminApiThatIsOffExists() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.containsBean("adminOffRoutes")).as("adminOffRoutes").isTrue();
			assertThat(context.containsBean("adminKeysRoutes")).as("adminKeysRoutes").isFalse();
			assertThat(context).doesNotHaveBean(KeyService.class);
			assertThat(context).doesNotHaveBean(KeyStore.class);
			assertThat(context).doesNotHaveBean(WriteBehind.class);
		});
	}

	@Test
	void withABlankAdminKeyVirtualKeysStayOff() {
		this.runner.withPropertyValues("junction.gateway.auth.admin-keys[0]=").run((context) -> {
			assertThat(context.containsBean("adminOffRoutes")).as("adminOffRoutes").isTrue();
			assertThat(context).doesNotHaveBean(KeyService.class);
		});
	}

	@Test
	void withAnAdminKeyVirtualKeysAndTheAdminApiAreWired() {
		this.runner
			.withPropertyValues("junction.gateway.auth.admin-keys=admin-secret",
					"junction.gateway.virtual-keys.db.h2-path=" + this.dir.resolve("keys"))
			.run(VirtualKeysConfigurationTests::assertVirtualKeysOn);
	}

	@Test
	void withAKeyDatabaseVirtualKeysAndTheAdminApiAreWired() {
		this.runner
			.withPropertyValues(
					"junction.gateway.virtual-keys.db.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1")
			.run(VirtualKeysConfigurationTests::assertVirtualKeysOn);
	}

	private static void assertVirtualKeysOn(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		assertThat(context).hasSingleBean(KeyService.class);
		assertThat(context).hasSingleBean(KeyStore.class);
		assertThat(context).hasSingleBean(BudgetLeases.class);
		assertThat(context).hasSingleBean(SpendBuffer.class);
		assertThat(context).hasSingleBean(WriteBehind.class);
		assertThat(context).hasSingleBean(AdminKeysHandler.class);
		assertThat(context.containsBean("adminKeysRoutes")).as("adminKeysRoutes").isTrue();
		assertThat(context.containsBean("adminOffRoutes")).as("adminOffRoutes").isFalse();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(VirtualKeysProperties.class)
	static class Infrastructure {

		@Bean
		MeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

}
