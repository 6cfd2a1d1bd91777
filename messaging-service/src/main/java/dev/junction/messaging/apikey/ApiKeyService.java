package dev.junction.messaging.apikey;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.junction.database.Notifications;
import dev.junction.messaging.common.Ids;
import dev.junction.messaging.common.MessagingProperties;
import dev.junction.messaging.common.SerializedEmitter;
import dev.junction.messaging.common.Timestamps;
import dev.junction.messaging.web.ApiException;
import dev.junction.messaging.web.Cursor;
import dev.junction.messaging.web.Page;
import dev.junction.messaging.web.PageRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;

/**
 * Issues, lists and revokes API keys, and validates presented keys through a cache so a
 * request costs no database round trip while its key is cached. Revoking a key evicts it
 * and ends its event streams at once on this instance and, on PostgreSQL, on every other
 * one ({@link KeyChangeListener}); cache entries expire after {@code api-key-cache-ttl}
 * in case a change goes unheard. A key works until its {@code expiresAt}.
 */
@Service
public class ApiKeyService {

	private static final Logger logger = LoggerFactory.getLogger(ApiKeyService.class);

	private final ApiKeyRepository repository;

	private final TransactionalOperator transaction;

	private final Clock clock;

	private final Duration recheckInterval;

	private final AsyncCache<String, Optional<ApiKey>> cache;

	private final SerializedEmitter<UUID> revocations = new SerializedEmitter<>(
			Sinks.many().multicast().directBestEffort(), (id, result) -> {
			});

	private final boolean shared;

	public ApiKeyService(ApiKeyRepository repository, TransactionalOperator transaction, Clock clock,
			MessagingProperties properties, Notifications notifications) {
		this.repository = repository;
		this.shared = notifications.shared();
		this.transaction = transaction;
		this.clock = clock;
		this.recheckInterval = properties.apiKeyCacheTtl();
		this.cache = Caffeine.newBuilder()
			.expireAfterWrite(properties.apiKeyCacheTtl())
			.maximumSize(100_000)
			.buildAsync();
	}

	/**
	 * The caller {@code rawKey} authenticates; 401 when it is unknown, revoked or
	 * expired.
	 */
	public Mono<Caller> authenticate(String rawKey) {
		return lookUp(ApiKeys.hash(rawKey)).flatMap((found) -> {
			if (found.isEmpty() || !found.get().active()) {
				return Mono.error(ApiException.unauthorized("Unknown or revoked API key"));
			}
			if (found.get().expired(this.clock.instant())) {
				return Mono.error(ApiException.unauthorized("API key expired at " + found.get().expiresAt()));
			}
			return Mono.just(found.get().toCaller());
		});
	}

	/**
	 * Completes, with the reason, when {@code caller}'s key stops working: revoked (at
	 * once; within {@code api-key-cache-ttl} should the news of a revocation elsewhere be
	 * lost), or expired.
	 */
	public Mono<String> whenInvalid(Caller caller) {
		Mono<String> revokedNow = this.revocations.asFlux()
			.filter(caller.keyId()::equals)
			.next()
			.map((id) -> "API key revoked");
		Mono<String> expired = (caller.expiresAt() != null)
				? Mono.delay(max(Duration.between(this.clock.instant(), caller.expiresAt()), Duration.ZERO))
					.map((tick) -> "API key expired")
				: Mono.never();
		// The first check runs at once: a revocation between authentication and the
		// subscription above would otherwise go unseen until the next one.
		Mono<String> revokedUnheard = Flux.interval(Duration.ZERO, this.recheckInterval)
			.concatMap((tick) -> lookUp(caller.keyHash()).onErrorResume((ex) -> Mono.empty()))
			.filter((found) -> found.isEmpty() || !found.get().active())
			.next()
			.map((found) -> "API key revoked");
		return Mono.firstWithValue(revokedNow, expired, revokedUnheard);
	}

	/**
	 * Issues a new key on behalf of {@code caller}, which may grant only what it holds:
	 * its scopes or fewer, its instances or some of them, its lifetime or less. The raw
	 * key is in the result and nowhere else.
	 */
	public Mono<IssuedKey> create(Caller caller, String name, Set<Scope> scopes, Set<UUID> instanceIds,
			Instant expiresAt) {
		Set<UUID> instances = (instanceIds != null) ? instanceIds : Set.of();
		caller.requireCanIssue(scopes, instances, expiresAt);
		if (expiresAt != null && !expiresAt.isAfter(this.clock.instant())) {
			throw ApiException.invalid("expiresAt", "must be in the future");
		}
		return issue(name, scopes, instances, expiresAt);
	}

	/** Issues a new key with no caller to check against (the generated admin key). */
	Mono<IssuedKey> issue(String name, Set<Scope> scopes, Set<UUID> instanceIds, Instant expiresAt) {
		return ApiKeys.generateOffLoop()
			.flatMap((raw) -> store(name, raw, scopes, instanceIds, expiresAt).map((key) -> new IssuedKey(key, raw)));
	}

	/** Stores {@code raw} as a key (used for the configured admin key). */
	Mono<ApiKey> store(String name, String raw, Set<Scope> scopes, Set<UUID> instanceIds, Instant expiresAt) {
		ApiKey key = new ApiKey(Ids.next(), name, ApiKeys.hash(raw), ApiKeys.prefix(raw), new LinkedHashSet<>(scopes),
				new LinkedHashSet<>(instanceIds), Timestamps.now(this.clock), expiresAt, null);
		return this.repository.insert(key)
			.flatMap((stored) -> notifyChanged(stored.id()).thenReturn(stored))
			.as(this.transaction::transactional)
			.doOnNext((stored) -> this.cache.synchronous().invalidate(stored.keyHash()));
	}

	/** The keys {@code caller} may manage. */
	public Mono<Page<ApiKey>> list(Caller caller, Boolean revoked, UUID instanceId, PageRequest page) {
		return this.repository.page(caller, revoked, instanceId, page)
			.collectList()
			.map((rows) -> Page.of(rows, page, (key) -> new Cursor(key.createdAt(), key.id())));
	}

	/** The key; 403 when {@code caller} may not manage it. */
	public Mono<ApiKey> get(Caller caller, UUID id) {
		return this.repository.findById(id)
			.switchIfEmpty(Mono.error(() -> ApiException.notFound("API key", id)))
			.doOnNext(caller::requireManage);
	}

	/**
	 * Revokes the key; it stops working on this instance at once and its event streams
	 * end.
	 */
	public Mono<ApiKey> revoke(Caller caller, UUID id) {
		return get(caller, id).then(this.repository.revoke(id, Timestamps.now(this.clock)))
			.flatMap((key) -> notifyChanged(key.id()).thenReturn(key))
			.as(this.transaction::transactional)
			.switchIfEmpty(Mono.error(() -> ApiException.notFound("API key", id)))
			.doOnNext((key) -> {
				this.cache.synchronous().invalidate(key.keyHash());
				this.revocations.emit(key.id());
				logger.info("API key {} ({}) revoked", key.id(), key.keyPrefix());
			});
	}

	/**
	 * The key {@code id} changed on some instance: forgets it here, and ends its event
	 * streams here if it no longer works.
	 */
	Mono<Void> changed(UUID id) {
		return this.repository.findById(id).doOnNext((key) -> {
			this.cache.synchronous().invalidate(key.keyHash());
			if (!key.active()) {
				this.revocations.emit(key.id());
			}
		}).then();
	}

	/** Forgets every cached key (changes may have gone unheard). */
	void forgetAll() {
		this.cache.synchronous().invalidateAll();
	}

	private Mono<Void> notifyChanged(UUID id) {
		return this.shared ? this.repository.notifyChanged(id) : Mono.empty();
	}

	/** Whether {@code raw} is already stored (active or not). */
	Mono<Optional<ApiKey>> findRaw(String raw) {
		return this.repository.findByHash(ApiKeys.hash(raw)).map(Optional::of).defaultIfEmpty(Optional.empty());
	}

	/** Whether a usable admin key for every instance exists. */
	Mono<Boolean> unrestrictedAdminExists() {
		return this.repository.unrestrictedAdminExists(this.clock.instant());
	}

	private static Duration max(Duration a, Duration b) {
		return (a.compareTo(b) >= 0) ? a : b;
	}

	private Mono<Optional<ApiKey>> lookUp(String hash) {
		return Mono.fromFuture(() -> this.cache.get(hash,
				(key, executor) -> this.repository.findByHash(key)
					.map(Optional::of)
					.defaultIfEmpty(Optional.empty())
					.toFuture()));
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
