package dev.junction.messaging.db;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import io.r2dbc.h2.H2ConnectionConfiguration;
import io.r2dbc.h2.H2ConnectionFactory;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.r2dbc.postgresql.client.SSLMode;
import io.r2dbc.spi.ConnectionFactory;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.r2dbc.connection.R2dbcTransactionManager;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.binding.BindMarkersFactory;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;

/** R2DBC wiring: PostgreSQL when configured, embedded H2 otherwise, migrated by Flyway first. */
@Configuration(proxyBeanMethods = false)
class DatabaseConfiguration {

	@Bean
	DatabaseUrl databaseUrl(DatabaseProperties properties) {
		return DatabaseUrl.of(properties);
	}

	@Bean(destroyMethod = "dispose")
	ConnectionPool connectionFactory(DatabaseUrl url, DatabaseProperties properties) {
		Migrations.migrate(url);
		ConnectionFactory target = (url.vendor() == Vendor.H2) ? h2(url) : postgres(url, properties, "junction-messaging");
		ConnectionPoolConfiguration pool = ConnectionPoolConfiguration.builder(target)
			.name("messaging")
			.initialSize(Math.min(properties.poolInitialSize(), properties.poolMaxSize()))
			.maxSize(properties.poolMaxSize())
			// An idle H2 file would close and unlock: one connection stays so no second process opens it.
			.minIdle((url.vendor() == Vendor.H2) ? 1 : 0)
			.maxAcquireTime(properties.poolMaxAcquireTime())
			.maxCreateConnectionTime(properties.connectTimeout())
			.maxIdleTime(Duration.ofMinutes(10))
			.maxValidationTime(Duration.ofSeconds(2))
			.build();
		return new ConnectionPool(pool);
	}

	private static ConnectionFactory h2(DatabaseUrl url) {
		return new H2ConnectionFactory(H2ConnectionConfiguration.builder()
			.url(url.database())
			.username(url.username())
			.password(url.password())
			.build());
	}

	@Bean
	Notifications notifications(DatabaseUrl url, DatabaseProperties properties) {
		return (url.vendor() == Vendor.H2) ? Notifications.none()
				: Notifications.postgres(postgres(url, properties, Notifications.APPLICATION_NAME));
	}

	private static PostgresqlConnectionFactory postgres(DatabaseUrl url, DatabaseProperties properties,
			String applicationName) {
		Map<String, String> options = new HashMap<>(url.options());
		PostgresqlConnectionConfiguration.Builder builder = PostgresqlConnectionConfiguration.builder()
			.host(url.host())
			.port(url.port())
			.database(url.database())
			.applicationName(applicationName)
			.connectTimeout(properties.connectTimeout())
			.tcpKeepAlive(true);
		if (url.username() != null) {
			builder.username(url.username());
		}
		if (url.password() != null) {
			builder.password(url.password());
		}
		String sslMode = options.remove("sslmode");
		if (sslMode != null) {
			builder.sslMode(SSLMode.fromValue(sslMode));
		}
		String schema = options.remove("currentSchema");
		if (schema != null) {
			builder.schema(schema);
		}
		options.remove("ApplicationName");
		if (!options.isEmpty()) {
			builder.options(options);
		}
		return new PostgresqlConnectionFactory(builder.build());
	}

	@Bean
	DatabaseClient databaseClient(ConnectionFactory connectionFactory) {
		return DatabaseClient.builder()
			.connectionFactory(connectionFactory)
			.bindMarkers(BindMarkersFactory.indexed("$", 1))
			.build();
	}

	@Bean
	R2dbcTransactionManager transactionManager(ConnectionFactory connectionFactory) {
		return new R2dbcTransactionManager(connectionFactory);
	}

	@Bean
	TransactionalOperator transactionalOperator(ReactiveTransactionManager transactionManager) {
		return TransactionalOperator.create(transactionManager);
	}

}
