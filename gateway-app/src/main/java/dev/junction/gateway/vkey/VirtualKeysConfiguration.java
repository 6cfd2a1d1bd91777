package dev.junction.gateway.vkey;

import java.time.Clock;

import dev.junction.database.DatabaseUrl;
import dev.junction.database.Notifications;
import dev.junction.gateway.auth.GatewayKeys;
import dev.junction.gateway.chat.RequestBodies;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.r2dbc.pool.ConnectionPool;
import tools.jackson.databind.ObjectMapper;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.binding.BindMarkersFactory;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * Virtual keys, their database and the admin API, when an admin key or a key database is
 * configured.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(VirtualKeysCondition.class)
public class VirtualKeysConfiguration {

	@Bean
	DatabaseUrl virtualKeysDatabaseUrl(VirtualKeysProperties properties) {
		return properties.db().location();
	}

	@Bean(destroyMethod = "dispose")
	ConnectionPool virtualKeysConnectionPool(DatabaseUrl url, VirtualKeysProperties properties) {
		return KeyDatabase.open(url, properties.db());
	}

	@Bean
	KeyStore keyStore(ConnectionPool pool, DatabaseUrl url) {
		DatabaseClient client = DatabaseClient.builder()
			.connectionFactory(pool)
			.bindMarkers(BindMarkersFactory.indexed("$", 1))
			.build();
		return new KeyStore(client, url.postgres());
	}

	@Bean
	KeyCache keyCache(KeyStore store, DatabaseUrl url, VirtualKeysProperties properties, MeterRegistry registry) {
		return new KeyCache(store::find, properties.cacheMaxKeys(), !url.postgres(), registry);
	}

	@Bean
	KeyChangeListener keyChangeListener(KeyCache cache, DatabaseUrl url, VirtualKeysProperties properties) {
		return new KeyChangeListener(
				url.postgres()
						? Notifications.postgres(url.postgresConnections(KeyChangeListener.APPLICATION_NAME,
								properties.db().connectTimeout()), KeyChangeListener.CHECK_INTERVAL)
						: Notifications.none(),
				cache);
	}

	@Bean
	BudgetLeases budgetLeases(KeyStore store, VirtualKeysProperties properties, MeterRegistry registry) {
		return new BudgetLeases(store, properties.lease(), System::nanoTime, writeErrors(registry, "budget"));
	}

	@Bean
	SpendBuffer spendBuffer(KeyStore store, MeterRegistry registry) {
		return new SpendBuffer(store, writeErrors(registry, "spend"));
	}

	@Bean(destroyMethod = "close")
	WriteBehind writeBehind(BudgetLeases leases, SpendBuffer spend, VirtualKeysProperties properties) {
		return new WriteBehind(leases, spend, properties.flushInterval());
	}

	@Bean
	KeyService keyService(KeyStore store, KeyCache cache, BudgetLeases leases, SpendBuffer spend,
			WriteBehind writeBehind) {
		return new KeyService(store, cache, leases, spend, Clock.systemUTC());
	}

	private static Runnable writeErrors(MeterRegistry registry, String what) {
		Counter counter = Counter.builder(WriteBehind.ERRORS)
			.description("Writes of spend or budget to the key database that failed and will be tried again")
			.tag("what", what)
			.register(registry);
		return counter::increment;
	}

	@Bean
	AdminKeysHandler adminKeysHandler(KeyService keys, GatewayKeys gatewayKeys, RequestBodies bodies,
			ObjectMapper mapper) {
		return new AdminKeysHandler(keys, gatewayKeys, bodies, mapper);
	}

	@Bean
	RouterFunction<ServerResponse> adminKeysRoutes(AdminKeysHandler handler) {
		return handler.routes();
	}

}
