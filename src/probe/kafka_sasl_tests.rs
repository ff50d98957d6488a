use super::*;

/// RFC 7677 section 3: the SCRAM-SHA-256 exchange for `user` / `pencil`.
#[test]
fn scram_sha_256_matches_the_rfc_7677_example() {
    let scram = Scram::new(Mechanism::ScramSha256, "user", "rOprNGfwEbeRWgbNEkqO");
    assert_eq!(scram.client_first(), "n,,n=user,r=rOprNGfwEbeRWgbNEkqO");
    let server_first =
        "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
    let (client_final, signature) = scram.client_final("pencil", server_first).unwrap();
    assert_eq!(
        client_final,
        "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="
    );
    let server_final = "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";
    verify_server_final(server_final, &signature).unwrap();
    // One changed byte of the server's signature is refused.
    let forged = "v=7rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";
    let e = verify_server_final(forged, &signature).unwrap_err();
    assert!(e.contains("does not match"), "{e}");
    let e = verify_server_final("e=invalid-proof", &signature).unwrap_err();
    assert!(e.contains("invalid-proof"), "{e}");
}

#[test]
fn a_server_first_message_out_of_bounds_is_refused() {
    let scram = Scram::new(Mechanism::ScramSha512, "probe", "abc");
    let refused = |server_first: &str, says: &str| {
        let e = scram.client_final("pw", server_first).unwrap_err();
        assert!(e.contains(says), "{server_first}: {e}");
    };
    refused("r=xyz1,s=QSXCR+Q6sek8bf92,i=4096", "does not extend");
    refused("r=abc,s=QSXCR+Q6sek8bf92,i=4096", "does not extend");
    refused("r=abcd,s=QSXCR+Q6sek8bf92,i=4095", "4095 PBKDF2 iterations");
    refused("r=abcd,s=QSXCR+Q6sek8bf92,i=2000000000", "iterations");
    refused("r=abcd,s=!!,i=4096", "salt");
    refused("r=abcd,s=QSXCR+Q6sek8bf92", "iteration count");
    refused("m=ext,r=abcd,s=QSXCR+Q6sek8bf92,i=4096", "extension");
    refused("e=unknown-user", "unknown-user");
    let (fin, sig) = scram
        .client_final("pw", "r=abcd,s=QSXCR+Q6sek8bf92,i=4096")
        .unwrap();
    assert!(fin.starts_with("c=biws,r=abcd,p="), "{fin}");
    assert_eq!(sig.len(), 64, "SHA-512 signature");
}

#[test]
fn names_are_escaped_and_plain_is_nul_separated() {
    let scram = Scram::new(Mechanism::ScramSha256, "a=b,c", "n1");
    assert_eq!(scram.client_first(), "n,,n=a=3Db=2Cc,r=n1");
    assert_eq!(plain("probe", "pw"), b"\0probe\0pw");
}

#[test]
fn credentials_come_from_the_environment_and_never_print() {
    let env = |vars: &'static [(&'static str, &'static str)]| {
        move |k: &str| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| (*v).to_string())
        }
    };
    let all = env(&[
        (USERNAME_ENV, "probe"),
        (PASSWORD_ENV, "hunter2"),
        (MECHANISM_ENV, "scram-sha-512"),
    ]);
    let c = credentials(Some("PLAIN"), &all).unwrap();
    assert_eq!(c.mechanism, Mechanism::ScramSha512, "the environment wins");
    let shown = format!("{c:?}");
    assert!(
        !shown.contains("hunter2") && shown.contains("probe"),
        "{shown}"
    );
    let from_url = env(&[(USERNAME_ENV, "probe"), (PASSWORD_ENV, "hunter2")]);
    let c = credentials(Some("plain"), &from_url).unwrap();
    assert_eq!(c.mechanism, Mechanism::Plain);
    let e = credentials(None, &from_url).unwrap_err();
    assert!(e.detail.contains(MECHANISM_ENV), "{}", e.detail);
    let e = credentials(Some("GSSAPI"), &from_url).unwrap_err();
    assert!(e.detail.contains("`GSSAPI`"), "{}", e.detail);
    let no_password = env(&[(USERNAME_ENV, "probe")]);
    let e = credentials(Some("PLAIN"), &no_password).unwrap_err();
    assert!(e.detail.contains(PASSWORD_ENV), "{}", e.detail);
}

#[test]
fn a_broker_message_echoing_the_password_is_scrubbed() {
    assert_eq!(scrub("bad password hunter2", "hunter2"), "bad password ***");
    assert_eq!(scrub("no secret", ""), "no secret");
}
