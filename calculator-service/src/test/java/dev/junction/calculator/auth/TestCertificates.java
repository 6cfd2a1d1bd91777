package dev.junction.calculator.auth;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority made at test time, issuing server and client certificates as
 * PEM files.
 */
public final class TestCertificates {

	private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

	private final String name;

	private final KeyPair keyPair;

	private final X509Certificate certificate;

	private final Path directory;

	private TestCertificates(String name, KeyPair keyPair, X509Certificate certificate, Path directory) {
		this.name = name;
		this.keyPair = keyPair;
		this.certificate = certificate;
		this.directory = directory;
	}

	public static TestCertificates authority(String name, Path directory) throws Exception {
		KeyPair keyPair = newKeyPair();
		X500Name subject = new X500Name("CN=" + name);
		JcaX509v3CertificateBuilder builder = builder(subject, subject, keyPair);
		builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
		X509Certificate certificate = sign(builder, keyPair);
		TestCertificates ca = new TestCertificates(name, keyPair, certificate, directory);
		write(directory.resolve(name + "-ca.pem"), certificate);
		return ca;
	}

	public Path caCertificate() {
		return this.directory.resolve(this.name + "-ca.pem");
	}

	/**
	 * Issues a certificate for localhost and 127.0.0.1; returns {certificate, private
	 * key} paths.
	 */
	public Path[] issue(String commonName) throws Exception {
		KeyPair keyPair = newKeyPair();
		JcaX509v3CertificateBuilder builder = builder(new X500Name("CN=" + this.name), new X500Name("CN=" + commonName),
				keyPair);
		builder.addExtension(Extension.subjectAlternativeName, false,
				new GeneralNames(new GeneralName[] { new GeneralName(GeneralName.dNSName, "localhost"),
						new GeneralName(GeneralName.iPAddress, "127.0.0.1") }));
		X509Certificate certificate = sign(builder, this.keyPair);
		Path cert = this.directory.resolve(commonName + "-cert.pem");
		Path key = this.directory.resolve(commonName + "-key.pem");
		write(cert, certificate);
		write(key, new org.bouncycastle.openssl.jcajce.JcaPKCS8Generator(keyPair.getPrivate(), null));
		return new Path[] { cert, key };
	}

	private static KeyPair newKeyPair() throws Exception {
		KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
		generator.initialize(256);
		return generator.generateKeyPair();
	}

	private static JcaX509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keyPair) {
		Instant now = Instant.now();
		return new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(SERIAL.incrementAndGet()),
				Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), subject,
				keyPair.getPublic());
	}

	private static X509Certificate sign(JcaX509v3CertificateBuilder builder, KeyPair signer) throws Exception {
		return new JcaX509CertificateConverter()
			.getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
	}

	private static void write(Path path, Object pemObject) throws IOException {
		StringWriter out = new StringWriter();
		try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
			writer.writeObject(pemObject);
		}
		Files.writeString(path, out.toString());
	}

}
