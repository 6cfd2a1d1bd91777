package dev.junction.gatling.grpc.testing

import java.io.StringWriter
import java.math.BigInteger
import java.nio.file.{Files, Path}
import java.security.{KeyPair, KeyPairGenerator}
import java.security.cert.X509Certificate
import java.time.{Duration, Instant}
import java.util.Date
import java.util.concurrent.atomic.AtomicLong

import org.bouncycastle.asn1.x500.X500Name
import org.bouncycastle.asn1.x509.{BasicConstraints, Extension, GeneralName, GeneralNames}
import org.bouncycastle.cert.jcajce.{JcaX509CertificateConverter, JcaX509v3CertificateBuilder}
import org.bouncycastle.openssl.jcajce.{JcaPEMWriter, JcaPKCS8Generator}
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder

/** A certificate authority made at test time, issuing certificates for localhost and 127.0.0.1 as PEM files. */
final class TestCertificates private (name: String, keyPair: KeyPair, directory: Path) {

  /** The CA certificate, PEM. */
  val caCertificate: Path = directory.resolve(s"$name-ca.pem")

  /** Issues a certificate; returns the paths of the certificate and its PKCS#8 private key. */
  def issue(commonName: String): (Path, Path) = {
    val issued = TestCertificates.newKeyPair()
    val builder = TestCertificates.builder(new X500Name(s"CN=$name"), new X500Name(s"CN=$commonName"), issued)
    builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(Array(
      new GeneralName(GeneralName.dNSName, "localhost"), new GeneralName(GeneralName.iPAddress, "127.0.0.1"))))
    val cert = directory.resolve(s"$commonName-cert.pem")
    val key = directory.resolve(s"$commonName-key.pem")
    TestCertificates.write(cert, TestCertificates.sign(builder, keyPair))
    TestCertificates.write(key, new JcaPKCS8Generator(issued.getPrivate, null))
    (cert, key)
  }
}

object TestCertificates {

  private val serial = new AtomicLong(System.currentTimeMillis())

  def authority(name: String, directory: Path): TestCertificates = {
    val keyPair = newKeyPair()
    val subject = new X500Name(s"CN=$name")
    val builder = this.builder(subject, subject, keyPair)
    builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
    val ca = new TestCertificates(name, keyPair, directory)
    write(ca.caCertificate, sign(builder, keyPair))
    ca
  }

  private def newKeyPair(): KeyPair = {
    val generator = KeyPairGenerator.getInstance("EC")
    generator.initialize(256)
    generator.generateKeyPair()
  }

  private def builder(issuer: X500Name, subject: X500Name, keyPair: KeyPair): JcaX509v3CertificateBuilder = {
    val now = Instant.now()
    new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(serial.incrementAndGet()),
      Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), subject, keyPair.getPublic)
  }

  private def sign(builder: JcaX509v3CertificateBuilder, signer: KeyPair): X509Certificate =
    new JcaX509CertificateConverter()
      .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate)))

  private def write(path: Path, pemObject: AnyRef): Unit = {
    val out = new StringWriter()
    val writer = new JcaPEMWriter(out)
    try writer.writeObject(pemObject)
    finally writer.close()
    Files.writeString(path, out.toString)
  }
}
