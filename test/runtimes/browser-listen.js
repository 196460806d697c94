// Collects Content-Security-Policy violations; a file of its own because the policy forbids inline scripts.
window.violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.violations.push({ directive: event.violatedDirective, blockedURI: event.blockedURI });
});
