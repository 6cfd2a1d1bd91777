package dev.junction.messaging.apikey;

import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.junction.messaging.common.Ids;
import dev.junction.messaging.common.MessagingProperties;
import dev.junction.messaging.common.Timestamps;
import dev.junction.messaging.web.ApiException;
import dev.junction.messaging.web.Cursor;
import dev.junction.messaging.web.Page;
import dev.junction.messaging.web.PageRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import org.springframework.stereotype.Service;

/**
 * Issues, lists and revokes API keys, and validates presented keys through a cache so a
 * request costs no database round trip while its key is cached. Revoking a key evicts it
 * at once on this instance; other instances stop accepting it when their entry expires.
 */
@Service
public class ApiKeyService {

	private static final Logger logger = LoggerFactory.getLogger(ApiKeyService.class);

	private final ApiKeyRepository repository;

	private final Clock clock;

	private final AsyncCache<String, Optional<ApiKey>> cache;

	public ApiKeyService(ApiKeyRepository repository, Clock clock, MessagingProperties properties) {
		this.repository = repository;
		this.clock = clock;
		this.cache = Caffeine.newBuilder()
			.expireAfterWrite(properties.apiKeyCacheTtl())
			.maximumSize(100_000)
			.buildAsync();
	}

	/** The caller {@code rawKey} authenticates; 401 when it is unknown or revoked. */
	public Mono<Caller> authenticate(String rawKey) {
		String hash = ApiKeys.hash(rawKey);
		return Mono.fromFuture(() -> this.cache.get(hash, (key, executor) -> this.repository.findByHash(key)
			.map(Optional::of)
			.defaultIfEmpty(Optional.empty())
			.toFuture()))
			.flatMap((found) -> found.filter(ApiKey::active)
				.map((apiKey) -> Mono.just(apiKey.toCaller()))
				.orElseGet(() -> Mono.error(ApiException.unauthorized("Unknown or revoked API key"))));
	}

	/** Issues a new key; the raw key is in the result and nowhere else. */
	public Mono<IssuedKey> create(String name, Set<Scope> scopes, Set<UUID> instanceIds) {
		return ApiKeys.generateOffLoop()
			.flatMap((raw) -> store(name, raw, scopes, instanceIds).map((key) -> new IssuedKey(key, raw)));
	}

	/** Stores {@code raw} as a key (used for the configured admin key). */
	Mono<ApiKey> store(String name, String raw, Set<Scope> scopes, Set<UUID> instanceIds) {
		ApiKey key = new ApiKey(Ids.next(), name, ApiKeys.hash(raw), ApiKeys.prefix(raw),
				new LinkedHashSet<>(scopes), (instanceIds != null) ? new LinkedHashSet<>(instanceIds) : Set.of(),
				Timestamps.now(this.clock), null);
		return this.repository.insert(key).doOnNext((stored) -> this.cache.synchronous().invalidate(stored.keyHash()));
	}

	public Mono<Page<ApiKey>> list(Boolean revoked, PageRequest page) {
		return this.repository.page(revoked, page)
			.collectList()
			.map((rows) -> Page.of(rows, page, (key) -> new Cursor(key.createdAt(), key.id())));
	}

	public Mono<ApiKey> get(UUID id) {
		return this.repository.findById(id).switchIfEmpty(Mono.error(() -> ApiException.notFound("API key", id)));
	}

	/** Revokes the key; it stops working on this instance at once. */
	public Mono<ApiKey> revoke(UUID id) {
		return this.repository.revoke(id, Timestamps.now(this.clock))
			.switchIfEmpty(Mono.error(() -> ApiException.notFound("API key", id)))
			.doOnNext((key) -> {
				this.cache.synchronous().invalidate(key.keyHash());
				logger.info("API key {} ({}) revoked", key.id(), key.keyPrefix());
			});
	}

	/** Whether {@code raw} is already stored (active or not). */
	Mono<Optional<ApiKey>> findRaw(String raw) {
		return this.repository.findByHash(ApiKeys.hash(raw)).map(Optional::of).defaultIfEmpty(Optional.empty());
	}

	Mono<Boolean> activeAdminExists() {
		return this.repository.activeAdminExists();
	}

	/**
	 * A key just issued.
	 *
	 * @param key the stored key
	 * @param rawKey the key itself, shown once
	 */
	public record IssuedKey(ApiKey key, String rawKey) {
	}

}
